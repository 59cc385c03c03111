//! Empty: this package holds the integration tests of noisefield
//! (`tests/`); see its Cargo.toml.
