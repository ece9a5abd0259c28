//! Every skill effect form, used within its cycle and refused beyond it.
