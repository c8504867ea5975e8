// Runs a shell command, as the candidate of issue 10 did.
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int rc = system(argv[1]);
    printf("system returned %d\n", rc);
    return 0;
}
