// Opens files many times: each open is a call the supervisor checks, so a
// supervisor that stops answering (it once left on a signal) shows as a
// failed open (ENOSYS) here.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
    for (int i = 0; i < 50000; i++) {
        int fd = open(i % 2 ? "/dev/null" : argv[1], i % 2 ? O_WRONLY : O_RDONLY);
        if (fd < 0) {
            printf("open %d failed: %s\n", i, strerror(errno));
            return 1;
        }
        close(fd);
    }
    printf("50000 opens\n");
    return 0;
}
