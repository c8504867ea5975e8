// Replaces itself with another program.
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
    execl(argv[1], argv[1], "-c", "echo pwned > pwned.txt", (char *)0);
    perror("execl");
    return 0;
}
