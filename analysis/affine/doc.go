// Package affine is symbolic algebra for CUDA index expressions.
//
// An index such as blockIdx.x*blockDim.x + threadIdx.x is turned into a
// Form: a sum of integer coefficients times monomials plus a constant,
//
//	c0 + Σ cᵢ·mᵢ,   mᵢ = s₁·s₂·…·sₖ
//
// where the symbols s are the CUDA built-ins (threadIdx.{x,y,z},
// blockIdx.*, blockDim.*, gridDim.*), kernel parameters, loop counters and
// other uniform names. Products of symbols are kept as monomials
// (blockDim.x*blockIdx.x), so the coefficient of threadIdx.x — the stride
// between neighbouring lanes of a warp — is read off exactly.
//
// Evaluation substitutes local definitions (int i = …; int row = …;),
// file-level constants (#define, constexpr, const), function-like macros
// (expanded textually, as the preprocessor does) and loop variables: a
// variable that starts at I and only grows by a uniform step S (a for loop's
// i += S, or a while loop's idx += stride) becomes I + S·⟨i⟩, where the
// symbol ⟨i⟩ counts iterations. Division and remainder by constants are
// exact when every coefficient divides; otherwise the result is NonAffine,
// which still records the symbols it depends on. Values read from memory
// (a[b[i]]) or returned by calls are Unknown.
//
// A Scope resolves names for one function; a File holds the file-level
// constants shared by all scopes of one source file.
package affine
