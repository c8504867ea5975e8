// What the CUDA runtime was seen doing on the GPU machine, none of which is
// an escape: mkdir of a folder that exists, unlink(""), opening the
// injection-path shared memory file and the device files, and replacing the
// /dev/char/MAJOR:MINOR links of the device files (refused as for any user
// but root, which the driver copes with). It must run clean.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
    if (mkdir("/tmp", 0755) == 0 || errno != EEXIST) { perror("mkdir /tmp"); return 1; }
    if (unlink("") == 0 || errno != ENOENT) { perror("unlink(\"\")"); return 1; }
    int fd = open("/dev/shm/cuda_injection_path_shm", O_RDWR);
    if (fd >= 0) close(fd);
    if (unlink("/dev/char/195:255") == 0 || symlink("../nvidiactl", "/dev/char/195:255") == 0) {
        fprintf(stderr, "replacing /dev/char/195:255 was allowed\n");
        return 1;
    }
    if (errno != EACCES) { perror("symlink /dev/char/195:255 (want EACCES)"); return 1; }
    fd = open("/dev/null", O_WRONLY | O_TRUNC);
    if (fd < 0) { perror("/dev/null"); return 1; }
    close(fd);
    return 0;
}
