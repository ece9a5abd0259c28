//! Card renderer (one picture for preview and print), PDF and PNG sheets.
