//! A recipe as parsed: calls, their inputs and parameters, values as
//! written, and their printing back to text.

use std::fmt;

use super::names::SourceKind;

/// A parameter value as written.
#[derive(Clone, Debug)]
pub(super) enum Val {
    Number(String),
    Word(String),
    List(Vec<(usize, Val)>),
    Pair(Box<(usize, Val)>, Box<(usize, Val)>),
}

impl fmt::Display for Val {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Val::Number(t) | Val::Word(t) => f.write_str(t),
            Val::List(items) => {
                f.write_str("[")?;
                for (i, (_, v)) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str("]")
            }
            Val::Pair(a, b) => write!(f, "({}, {})", a.1, b.1),
        }
    }
}

/// A named parameter: its name, where the name starts, its value and where
/// the value starts.
#[derive(Clone, Debug)]
pub(super) struct Param {
    pub(super) key: String,
    pub(super) at: usize,
    pub(super) value: Val,
    pub(super) value_at: usize,
}

/// One call: a name, its inputs and parameters in the order written.
#[derive(Clone, Debug)]
pub(super) struct Call {
    pub(super) name: String,
    pub(super) at: usize,
    pub(super) kind: SourceKind,
    pub(super) inputs: Vec<Call>,
    pub(super) params: Vec<Param>,
    /// Whether the text wrote parentheses (`fbm()` prints back as written).
    pub(super) parens: bool,
    /// Arguments in the order written: `true` for an input.
    pub(super) order: Vec<bool>,
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.parens {
            return Ok(());
        }
        f.write_str("(")?;
        let (mut inputs, mut params) = (self.inputs.iter(), self.params.iter());
        for (i, &is_input) in self.order.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if is_input {
                write!(f, "{}", inputs.next().expect("one input per mark"))?;
            } else {
                let p = params.next().expect("one parameter per mark");
                write!(f, "{}={}", p.key, p.value)?;
            }
        }
        f.write_str(")")
    }
}
