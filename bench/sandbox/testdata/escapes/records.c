// Rewrites its records: writes forged lines into the records descriptor,
// then tries to take the descriptor over (dup2 onto it, close it).
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    dprintf(3, "{\"config\":0,\"seed\":\"a\",\"ms\":[0.001]}\n");
    int null = open("/dev/null", O_WRONLY);
    if (dup2(null, 3) < 0) perror("dup2");
    if (close(3) < 0) perror("close");
    dprintf(3, "{\"config\":0,\"seed\":\"a\",\"ms\":[0.001]}\n");
    return 0;
}
