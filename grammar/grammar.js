/**
 * @file CUDA grammar for tree-sitter (cudaperf), extending tree-sitter-cpp.
 * @license MIT
 *
 * Node names that the analysis passes rely on are documented in README.md.
 * Everything not listed there keeps tree-sitter-cpp's (and tree-sitter-c's)
 * names, so queries written for C++ keep working on CUDA.
 */

/// <reference types="tree-sitter-cli/dsl" />
// @ts-check

const CPP = require('tree-sitter-cpp/grammar');

// tree-sitter-c exports its precedence table (tree-sitter-cpp extends it in
// place); a launch binds like a call.
const PREC = require('tree-sitter-c/grammar').PREC;

// Keywords that nvcc accepts where C++ accepts storage-class specifiers and
// type qualifiers. They become one node kind so that analyses match on the
// node's text instead of on a dozen anonymous tokens.
const CUDA_QUALIFIERS = [
  '__global__',
  '__device__',
  '__host__',
  '__forceinline__',
  '__noinline__',
  '__shared__',
  '__constant__',
  '__managed__',
  '__grid_constant__',
];

module.exports = grammar(CPP, {
  name: 'cuda',

  rules: {
    // __global__, __device__, __shared__ ... sit with static/const/inline.
    _declaration_modifiers: ($, original) => choice(
      original,
      $.cuda_qualifier,
      $.launch_bounds,
      $.maxnreg,
    ),

    cuda_qualifier: _ => choice(...CUDA_QUALIFIERS),

    // __launch_bounds__(maxThreadsPerBlock[, minBlocksPerSM[, maxBlocksPerCluster]])
    launch_bounds: $ => seq('__launch_bounds__', $.argument_list),

    // __maxnreg__(registers), CUDA 12.4+.
    maxnreg: $ => seq('__maxnreg__', $.argument_list),

    // CUDA's __align__(n) is the same thing as alignas(n) for our purposes.
    alignas_qualifier: $ => seq(
      choice('alignas', '_Alignas', '__align__'),
      '(',
      choice($.expression, $.type_descriptor),
      ')',
    ),

    // Kernel launch: k<<<grid, block[, shared_mem[, stream]]>>>(args).
    call_expression: ($, original) => choice(
      original,
      prec(PREC.CALL, seq(
        field('function', $.expression),
        field('config', $.launch_config),
        field('arguments', $.argument_list),
      )),
    ),

    launch_config: $ => seq(
      '<<<',
      field('grid', $.expression),
      ',',
      field('block', $.expression),
      optional(seq(
        ',',
        field('shared_mem', $.expression),
        optional(seq(
          ',',
          field('stream', $.expression),
        )),
      )),
      '>>>',
    ),

    // Extended lambdas: [=] __device__ (int i) { ... }.
    lambda_expression: $ => seq(
      field('captures', $.lambda_capture_specifier),
      repeat($.cuda_qualifier),
      optional(seq(
        field('template_parameters', $.template_parameter_list),
        optional(field('constraint', $.requires_clause)),
      )),
      optional(field('declarator', $.abstract_function_declarator)),
      field('body', $.compound_statement),
    ),
  },
});
