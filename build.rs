//! Rebuild when the bundled cards or the migrations change: both are built into the binary
//! with `include_dir!`, which cannot tell cargo about files added to its folders.

fn main() {
    println!("cargo:rerun-if-changed=cards");
    println!("cargo:rerun-if-changed=migrations");
    println!("cargo:rerun-if-changed=assets");
}
