// Signals another process (argv[1], a pid), e.g. a candidate running
// beside it as the same user; then signals itself, which is allowed.
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
static void on_usr1(int s) { (void)s; printf("got my own signal\n"); }
int main(int argc, char **argv) {
    if (kill(atoi(argv[1]), SIGTERM) == 0) printf("KILLED %s\n", argv[1]);
    else perror("kill");
    signal(SIGUSR1, on_usr1);
    if (raise(SIGUSR1) != 0 || kill(getpid(), SIGUSR1) != 0) { perror("own signal"); return 1; }
    return 0;
}
