// Package harness generates the programs that run a c2cuda task.
//
// For a task it writes three files:
//
//   - harness.h: the configuration table (element counts, scalar values and
//     input distributions, all evaluated from task.yaml), a splitmix64
//     generator, and raw file I/O shared by both programs;
//   - ref_main.c: linked with reference.c (gcc -O2), it draws the inputs for
//     every configuration and both seeds, runs the optional generator,
//     writes the inputs to the work folder, times the C reference on the CPU
//     (seed A) and writes its outputs;
//   - driver.cu: linked with a candidate (nvcc), it reads those inputs,
//     copies them to the device, poisons the outputs (0xFF bytes, a NaN, for
//     floats; 0xA5 bytes for integers) and restores inout arrays before every
//     call, flushes L2 by writing a buffer twice its size, times each call
//     with CUDA events on the default stream, and after the end event has
//     completed synchronises the whole device and measures on the host how
//     long that took (the "tail": work the events did not see). It then runs
//     the candidate once more on the seed B inputs, and writes every output
//     to its own output folder and one JSON record per (configuration,
//     seed) to a records file.
//
// The driver's host side is kept small, because the GPU machine is
// CPU-bound when it evaluates many candidates at once and page-locking
// costs kernel time per call: it pins one host arena per process, sized
// here for the largest configuration, and carves every configuration's
// arrays out of it. It checks the inputs on the device: a device copy of
// each in array is made when the inputs are copied, and after the calls a
// harness kernel compares the array with it byte for byte; the record
// lists the in arrays that differ ("inputs_modified").
//
// The seeds exist only in the reference program: the candidate's process
// reads finished inputs and never sees a seed, and the reference outputs
// are not in the work folder while a candidate runs (the caller reads and
// removes them first). Comparison and cheat detection happen in Go
// (package verdict), on the files and records.
package harness
