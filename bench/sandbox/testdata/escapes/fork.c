// Starts a child process that would outlive the timing.
#include <stdio.h>
#include <unistd.h>
int main(void) {
    pid_t p = fork();
    if (p == 0) { FILE *f = fopen("child.txt", "w"); if (f) fclose(f); _exit(0); }
    printf("fork returned %d\n", (int)p);
    return 0;
}
