// Writes outside its folder through openat2 (flags in a struct in memory)
// and makes a symlink in its folder that points outside.
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(int argc, char **argv) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = O_WRONLY | O_CREAT;
    how.mode = 0644;
    long fd = syscall(SYS_openat2, AT_FDCWD, argv[1], &how, sizeof how);
    if (fd >= 0) { write(fd, "escaped\n", 8); printf("WROTE %s\n", argv[1]); }
    else perror("openat2");
    if (symlink(argv[1], "link") == 0) {
        FILE *f = fopen("link", "w");
        if (f) { fputs("escaped\n", f); fclose(f); printf("WROTE through link\n"); }
    } else perror("symlink");
    return 0;
}
