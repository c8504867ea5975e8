// Uses the GPU gate the way the driver does (descriptor 4: ask, wait for
// the grant), then tries to close and replace it, which must be refused.
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    char op = 'S', g = 0;
    if (write(4, &op, 1) != 1 || read(4, &g, 1) != 1 || g != 'g') { perror("gate"); return 1; }
    printf("granted\n");
    if (dup2(1, 4) == 4) { printf("replaced the gate\n"); return 1; }
    if (close(4) == 0) { printf("closed the gate\n"); return 1; }
    return 0;
}
