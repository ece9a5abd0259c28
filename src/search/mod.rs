//! The search query language: lexer, parser, AST, compiled to SQL over the catalogue.
