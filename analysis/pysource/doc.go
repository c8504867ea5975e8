// Package pysource finds the CUDA inside Python files, so that the
// analyzers can lint a KernelBench-style model_new.py: the kernels live in
// string literals passed to torch.utils.cpp_extension.load_inline
// (cuda_sources=..., directly or through a name assigned earlier) or in
// any other string that declares a __global__ function (CuPy's RawKernel,
// for example).
//
// Extract decodes those literals (escapes, raw and f-string braces) into
// one virtual .cu file and keeps, for every decoded byte, its offset in
// the Python file, so a diagnostic at a line and column of the virtual
// file maps back to the line and column of the Python source a developer
// sees (Source.Position). It is a tokenizer, not a Python parser: names
// are followed only through plain `NAME = "..."` assignments, which is how
// KernelBench and the PyTorch tutorials write them.
package pysource
