// Package launcher implements cudaperf's compiler-launcher mode: the
// behaviour CMake expects from CMAKE_CUDA_COMPILER_LAUNCHER.
//
// CMake runs `<launcher> <compiler> <args...>`; cudaperf receives the whole
// compiler command as its arguments. The launcher finds the CUDA sources in
// that command, lints them (diagnostics on stderr), then executes the command
// unchanged and returns its exit status. Linting never changes the build's
// outcome unless CUDAPERF_WERROR=1 asks for it, and CMake's own try-compile
// probes are passed straight through. Chains such as `cudaperf ccache nvcc …`
// work because the launcher treats everything after it as an opaque command.
package launcher
