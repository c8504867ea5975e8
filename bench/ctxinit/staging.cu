// staging splits what a candidate process's host staging costs (issue 10).
//
// On the H200 machine a candidate process's kernel CPU grows with the
// bytes its configurations stage, about 1.9 s per GB of host arena
// (bench/RESULTS.md, 2026-12-04 lease 10, by task), and most of a process
// is that. The driver (bench/harness) pins one arena with cudaMallocHost,
// reads each seed's inputs into it from files, copies them in, copies the
// outputs back into it and writes them to files. This program does the
// same for a vector_add-shaped configuration (two float inputs, one
// output, N elements, two seeds), with the host staging chosen by MODE,
// and prints per phase the wall time and the process's kernel and user
// CPU, so that pinning, reading and writing can be told apart and the
// alternatives compared:
//
//   pinned    as the driver: cudaMallocHost arena, read(), write()
//   pageable  malloc arena (the driver's CUDAPERF_TEST_PAGEABLE)
//   register  malloc arena, then cudaHostRegister
//   hugepage  as register, the arena advised to transparent huge pages
//   mapin     inputs mapped from their files (shared with every process
//             of the task) and registered read-only; outputs as pinned
//   mapout    pinned inputs; each output a file mapped shared, registered,
//             and copied into by the GPU (no write())
//   mapboth   mapin and mapout
//   nofiles   pinned arena, no reads or writes: pinning and copies only
//   cpuonly   no CUDA at all: a malloc arena, the reads and the writes
//             (runs on any machine: the file copies' share)
//
// Usage: staging DIR MODE [N]   (DIR holds in0 and in1 of N floats; the
// outputs go to DIR/out-PID-SEED). Built and run by bench/ctxinit/staging.py
// (bench/gpu-evaluator.sh's staging step). Prints one JSON line.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cuda_runtime.h>

static double now_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static double cpu_ms(bool sys) {
  rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  timeval t = sys ? ru.ru_stime : ru.ru_utime;
  return t.tv_sec * 1e3 + t.tv_usec * 1e-3;
}

// Phases, in order; each accumulates wall, kernel and user milliseconds.
enum { P_CONTEXT, P_DEVICE, P_STAGE, P_READ, P_H2D, P_KERNEL, P_D2H, P_WRITE, P_RELEASE, NPHASES };
static const char *phase_name[NPHASES] = {"context", "device_alloc", "host_setup", "read", "h2d", "kernel", "d2h", "write", "release"};
static double acc[NPHASES][3];
static double mark[3];

static void begin() { mark[0] = now_ms(), mark[1] = cpu_ms(true), mark[2] = cpu_ms(false); }
static void end(int p) {
  acc[p][0] += now_ms() - mark[0];
  acc[p][1] += cpu_ms(true) - mark[1];
  acc[p][2] += cpu_ms(false) - mark[2];
}

static void die(const char *what, const char *why) {
  printf("{\"error\":\"%s: %s\"}\n", what, why);
  exit(1);
}
static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) die(what, cudaGetErrorString(e));
}

static void read_file(const char *path, void *p, size_t n) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) die(path, strerror(errno));
  for (size_t off = 0; off < n;) {
    ssize_t k = read(fd, (char *)p + off, n - off);
    if (k <= 0) die(path, k < 0 ? strerror(errno) : "shorter than N floats");
    off += k;
  }
  close(fd);
}

static void write_file(const char *path, const void *p, size_t n) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) die(path, strerror(errno));
  for (size_t off = 0; off < n;) {
    ssize_t k = write(fd, (const char *)p + off, n - off);
    if (k <= 0) die(path, strerror(errno));
    off += k;
  }
  close(fd);
}

// map_file maps path (n bytes) shared: read-only, or created and sized.
static void *map_file(const char *path, size_t n, bool writable) {
  int fd = writable ? open(path, O_RDWR | O_CREAT | O_TRUNC, 0600) : open(path, O_RDONLY);
  if (fd < 0) die(path, strerror(errno));
  if (writable && ftruncate(fd, (off_t)n) != 0) die(path, strerror(errno));
  void *p = mmap(nullptr, n, writable ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
  close(fd);
  if (p == MAP_FAILED) die(path, strerror(errno));
  return p;
}

__global__ void add(const float *a, const float *b, float *c, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    c[i] = a[i] + b[i];
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s DIR MODE [N]\n", argv[0]);
    return 2;
  }
  const char *dir = argv[1], *mode = argv[2];
  size_t n = argc > 3 ? strtoull(argv[3], nullptr, 10) : 33554433, bytes = n * sizeof(float);
  bool pinned = !strcmp(mode, "pinned") || !strcmp(mode, "nofiles"), pageable = !strcmp(mode, "pageable");
  bool reg = !strcmp(mode, "register") || !strcmp(mode, "hugepage");
  bool mapin = !strcmp(mode, "mapin") || !strcmp(mode, "mapboth");
  bool mapout = !strcmp(mode, "mapout") || !strcmp(mode, "mapboth");
  bool files = strcmp(mode, "nofiles") != 0, cuda = strcmp(mode, "cpuonly") != 0;
  if (!cuda) pageable = true;
  if (!pinned && !pageable && !reg && !mapin && !mapout) die(mode, "unknown MODE");
  char path[4096];

  float *d[3] = {nullptr, nullptr, nullptr};
  if (cuda) {
    begin();
    check(cudaFree(0), "CUDA initialisation");
    end(P_CONTEXT);
    begin();
    for (auto &p : d) check(cudaMalloc(&p, bytes), "cudaMalloc");
    end(P_DEVICE);
  }

  // Host staging: in[0], in[1] and out[seed] are where the bytes pass.
  begin();
  float *in[2] = {nullptr, nullptr}, *out[2] = {nullptr, nullptr};
  size_t arena_bytes = (mapin ? 0 : 2 * bytes) + (mapout ? 0 : bytes);
  unsigned char *arena = nullptr;
  int ro_ok = 0;
  if (arena_bytes) {
    if (pinned || mapin || mapout) {
      check(cudaMallocHost(&arena, arena_bytes), "cudaMallocHost");
    } else {
      if (posix_memalign((void **)&arena, 2 << 20, arena_bytes)) die("arena", "out of memory");
      if (!strcmp(mode, "hugepage")) madvise(arena, arena_bytes, MADV_HUGEPAGE);
      if (reg) check(cudaHostRegister(arena, arena_bytes, cudaHostRegisterDefault), "cudaHostRegister");
    }
  }
  if (mapin) { /* reported, and named when the registration below is refused */
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&ro_ok, cudaDevAttrHostRegisterReadOnlySupported, dev);
  }
  size_t off = 0;
  for (int i = 0; i < 2; i++) {
    if (mapin) {
      snprintf(path, sizeof path, "%s/in%d", dir, i);
      in[i] = (float *)map_file(path, bytes, false);
      cudaError_t e = cudaHostRegister(in[i], bytes, cudaHostRegisterReadOnly);
      if (e != cudaSuccess)
        die(ro_ok ? "cudaHostRegister read-only (the device says it supports it)"
                  : "cudaHostRegister read-only (the device says it does not support it)",
            cudaGetErrorString(e));
    } else {
      in[i] = (float *)(arena + off);
      off += bytes;
    }
  }
  if (!mapout) out[0] = out[1] = (float *)(arena + off);
  end(P_STAGE);

  for (int seed = 0; seed < 2; seed++) {
    // Each seed reads its inputs anew, as the driver does.
    if (files && !mapin) {
      begin();
      for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/in%d", dir, i);
        read_file(path, in[i], bytes);
      }
      end(P_READ);
    }
    if (cuda) {
      begin();
      for (int i = 0; i < 2; i++) check(cudaMemcpy(d[i], in[i], bytes, cudaMemcpyHostToDevice), "copying inputs");
      end(P_H2D);
      begin();
      add<<<1024, 256>>>(d[0], d[1], d[2], n);
      check(cudaDeviceSynchronize(), "kernel");
      end(P_KERNEL);
    }
    if (mapout) {
      begin();
      snprintf(path, sizeof path, "%s/out-%d-%d", dir, (int)getpid(), seed);
      out[seed] = (float *)map_file(path, bytes, true);
      check(cudaHostRegister(out[seed], bytes, cudaHostRegisterDefault), "cudaHostRegister output");
      end(P_STAGE);
    }
    if (cuda) {
      begin();
      check(cudaMemcpy(out[seed], d[2], bytes, cudaMemcpyDeviceToHost), "copying outputs");
      end(P_D2H);
    }
    begin();
    if (mapout) {
      check(cudaHostUnregister(out[seed]), "cudaHostUnregister output");
      munmap(out[seed], bytes);
    } else if (files) {
      snprintf(path, sizeof path, "%s/out-%d-%d", dir, (int)getpid(), seed);
      write_file(path, out[seed], bytes);
    }
    end(P_WRITE);
  }

  // What the process gives back before exit (exit itself is the parent's
  // to measure: the rest of the context's teardown).
  begin();
  if (mapin)
    for (auto p : in) cudaHostUnregister(p), munmap(p, bytes);
  if (arena) {
    if (pinned || mapin || mapout) cudaFreeHost(arena);
    else {
      if (reg) cudaHostUnregister(arena);
      free(arena);
    }
  }
  end(P_RELEASE);

  printf("{\"mode\":\"%s\",\"n\":%zu,\"readonly_register_supported\":%d", mode, n, ro_ok);
  for (int p = 0; p < NPHASES; p++)
    printf(",\"%s\":[%.2f,%.2f,%.2f]", phase_name[p], acc[p][0], acc[p][1], acc[p][2]);
  printf("}\n");
  return 0;
}
