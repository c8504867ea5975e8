// Reads a file it was not given (the compile cache, the reference outputs,
// another candidate's folder), by its path and through /proc/self/root.
#include <stdio.h>
int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        char buf[64] = {0};
        FILE *f = fopen(argv[i], "r");
        if (!f) { perror(argv[i]); continue; }
        if (fgets(buf, sizeof buf, f)) printf("READ %s: %s", argv[i], buf);
        fclose(f);
    }
    return 0;
}
