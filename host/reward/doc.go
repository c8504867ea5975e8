// Package reward computes the RL reward of a kernel candidate: the
// verifiable reward Rver from its benchmark outcome, the structural reward
// Rstr from the ranker, and their combination under one of four modes.
//
// Rver follows the paper, with one documented addition:
//
//	Rver = −αc                                   no code block, or it does not compile
//	     = −αt · failed/total                    some configurations fail
//	     = β + αs·clip(log2(s/b), −L, L) − αv·min(cv, cvmax)   all pass
//
// where s is the measured speedup on the task's primary configuration, b the
// task's speedup baseline (by default the geometric mean of its measured
// variants, so log2(s/b) = 0 is "as fast as a typical known kernel"; the C
// reference is 300–8000× slower than a GPU kernel and would saturate any
// clip), cv the coefficient of variation of the candidate's runtime, and β
// the correctness bonus. Without β (the paper's terms alone) a correct but
// slow kernel can score below a partly wrong one; with the defaults every
// correct candidate scores above every incorrect one (see DefaultWeights).
//
// Rstr is the ranker's score of the candidate's feature vector. The modes
// are the ablations of the paper and the control the reviewers asked for:
//
//	ver     R = Rver
//	str     R = λ·Rstr                (a candidate without code gets −αc)
//	both    R = Rver + λ·Rstr
//	random  R = Rver + λ·z, z ~ Normal(mean, var) of the real Rstr seen so far
//
// Which candidates get a structural term is the gate, str_on: every
// candidate with code (code, the paper's reward taken literally), those
// that compiled (compiled, the default), or those that are correct
// (correct). A candidate outside the gate gets no structural term (and in
// mode str gets −αc), and the random control draws for exactly the
// candidates the gate admits. DefaultWeights says why the default is not
// the paper's: with str_on: code a GRPO run on the H200 learned to raise
// the ranker's score of code that does not compile.
//
// λ·Rstr is unbounded, so it can move a candidate across Rver's classes
// (compile failure < wrong < correct): in the reward ablation's runs half
// the compiled candidates of both and random scored below a compile
// failure. str_bound squashes the term into (−b, b), b·tanh(λ·Rstr/b);
// Weights.OrderBound is the largest b that keeps every class in order
// (0.085 for the defaults). It is off by default, the paper's reward.
//
// In every mode the real Rstr is computed when a ranker is configured, so
// the running mean and variance (Welford) and the Rstr–speedup correlation
// are always measured. The Combiner's state, random generator included, is
// serialisable, so a resumed run draws the same random scores.
//
// The package is pure: no plugin or proto types.
package reward
