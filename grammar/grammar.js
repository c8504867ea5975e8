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

  conflicts: ($, original) => original.concat([
    [$.type_specifier, $.macro_modifier],
    [$._declarator, $.macro_modifier],
    [$._class_name, $.macro_modifier],
    [$.sized_type_specifier, $.macro_modifier],
    [$._declarator, $.type_specifier, $.macro_modifier],
    [$.type_specifier, $.expression, $.macro_modifier],
    [$._declarator, $.type_specifier, $.expression, $.macro_modifier],
  ]),

  rules: {
    // __global__, __device__, __shared__ ... sit with static/const/inline.
    _declaration_modifiers: ($, original) => choice(
      original,
      $.cuda_qualifier,
      $.launch_bounds,
      $.maxnreg,
      $.cluster_dims,
    ),

    cuda_qualifier: _ => choice(...CUDA_QUALIFIERS),

    // CUDA code hides qualifiers behind macros (#define HOST_DEVICE
    // __host__ __device__). An identifier before the type of a declaration
    // is such a macro; the parser tries this reading only when the plain one
    // fails.
    _declaration_specifiers: $ => prec.right(seq(
      repeat(choice($._declaration_modifiers, $.macro_modifier)),
      field('type', $.type_specifier),
      repeat($._declaration_modifiers),
    )),

    macro_modifier: $ => prec.dynamic(-10, $.identifier),

    // A macro call is accepted only in a class head: among declaration
    // specifiers, `T (&items)[N]` in a parameter list would read as one.
    macro_call_modifier: $ => seq($.identifier, $.argument_list),

    // ... and before constructors: HOST_DEVICE Vec3() : x(0) {}.
    _constructor_specifiers: ($, original) => choice(original, $.macro_modifier),

    // The same in a class head: struct ALIGN_MACRO(16) Vec3 { ... }.
    _class_declaration: $ => seq(
      repeat(choice($.attribute_specifier, $.alignas_qualifier, $.macro_modifier, alias($.macro_call_modifier, $.macro_modifier))),
      optional($.ms_declspec_modifier),
      repeat($.attribute_declaration),
      $._class_declaration_item,
    ),

    // __launch_bounds__(maxThreadsPerBlock[, minBlocksPerSM[, maxBlocksPerCluster]])
    launch_bounds: $ => seq('__launch_bounds__', $.argument_list),

    // __maxnreg__(registers), CUDA 12.4+.
    maxnreg: $ => seq('__maxnreg__', $.argument_list),

    // __cluster_dims__(x[, y[, z]]), thread block clusters (sm_90).
    cluster_dims: $ => seq('__cluster_dims__', $.argument_list),

    // CUDA's __align__(n) is the same thing as alignas(n) for our purposes.
    alignas_qualifier: $ => seq(
      choice('alignas', '_Alignas', '__align__'),
      '(',
      choice($.expression, $.type_descriptor),
      ')',
    ),

    // tree-sitter-c's identifier (\p{XID_Start}\p{XID_Continue}*) compiles
    // to a binary search over ~800 Unicode ranges for every character of
    // every identifier; the lexer spent a tenth of the parse there. ASCII
    // is tested directly and every non-ASCII character is accepted
    // (nvcc's EDG front end accepts UTF-8 identifiers; a linter need not
    // reject the rest).
    identifier: _ =>
      /([a-zA-Z_$]|[^\x00-\x7F]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})([a-zA-Z0-9_$]|[^\x00-\x7F]|\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8})*/,

    // tree-sitter-cpp misses an unnamed enum with a base type,
    // `enum : uint32_t { A, B };`, common in CUDA code for flag constants.
    enum_specifier: $ => prec.right(seq(
      'enum',
      optional(choice('class', 'struct')),
      choice(
        seq(
          field('name', $._class_name),
          optional($._enum_base_clause),
          optional(field('body', $.enumerator_list)),
        ),
        seq(
          optional($._enum_base_clause),
          field('body', $.enumerator_list),
        ),
      ),
      optional($.attribute_specifier),
    )),

    // Kernel launch: k<<<grid, block[, shared_mem[, stream]]>>>(args).
    call_expression: ($, original) => choice(
      original,
      prec(PREC.CALL, seq(
        field('function', $.expression),
        field('config', $.launch_config),
        field('arguments', $.argument_list),
      )),
    ),

    // Each part converts to dim3 (or size_t, cudaStream_t), so a braced
    // list is accepted as in an argument list: k<<<{4, 2}, 128>>>().
    launch_config: $ => seq(
      '<<<',
      field('grid', $._launch_argument),
      ',',
      field('block', $._launch_argument),
      optional(seq(
        ',',
        field('shared_mem', $._launch_argument),
        optional(seq(
          ',',
          field('stream', $._launch_argument),
        )),
      )),
      '>>>',
    ),

    _launch_argument: $ => choice($.expression, $.initializer_list),

    // A pragma may sit between a loop header and its body, where C++ wants a
    // statement: `for (...)\n#pragma unroll\n for (...) ...`. It becomes a
    // preproc_call child of the loop, just before the `body` field.
    for_statement: $ => seq(
      'for',
      '(',
      $._for_statement_body,
      ')',
      ...pragmaPrefixed($, 'body'),
    ),

    for_range_loop: $ => seq(
      'for',
      '(',
      $._for_range_loop_body,
      ')',
      ...pragmaPrefixed($, 'body'),
    ),

    while_statement: $ => seq(
      'while',
      field('condition', $.condition_clause),
      ...pragmaPrefixed($, 'body'),
    ),

    do_statement: $ => seq(
      'do',
      ...pragmaPrefixed($, 'body'),
      'while',
      field('condition', $.parenthesized_expression),
      ';',
    ),

    if_statement: $ => prec.right(seq(
      'if',
      optional('constexpr'),
      field('condition', $.condition_clause),
      ...pragmaPrefixed($, 'consequence'),
      optional(field('alternative', $.else_clause)),
    )),

    else_clause: $ => seq('else', repeat($.preproc_call), $.statement),

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

/**
 * The body of a loop or branch, optionally preceded by pragmas.
 *
 * @param {GrammarSymbols<string>} $
 * @param {string} name the body's field name
 *
 * @returns {Rule[]}
 */
function pragmaPrefixed($, name) {
  return [repeat($.preproc_call), field(name, $.statement)];
}
