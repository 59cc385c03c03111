//! The parser: recipe text to a tree of calls in one pass, with bounded
//! nesting, failing at the first error.

use super::MAX_RECIPE_DEPTH;
use super::error::{RecipeError, clip};
use super::names::{BUILT_IN, SourceKind};
use super::tree::{Call, Param, Val};
use crate::{DynSource, MAX_CONTROL_POINTS};

/// Most values in one list parameter (`terrace` takes up to
/// [`MAX_CONTROL_POINTS`] points).
const MAX_LIST: usize = MAX_CONTROL_POINTS;

pub(super) fn is_name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

pub(super) fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

pub(super) struct Parser<'a> {
    pub(super) text: &'a str,
    pub(super) at: usize,
    pub(super) users: &'a [(&'a str, DynSource)],
}

impl Parser<'_> {
    pub(super) fn error(&self, message: impl Into<String>) -> RecipeError {
        RecipeError::at(self.text, self.at, message)
    }

    pub(super) fn skip_space(&mut self) {
        let rest = &self.text[self.at..];
        self.at += rest.len() - rest.trim_start().len();
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.text[self.at..].chars().next()
    }

    /// What is at the cursor, for messages.
    fn found(&mut self) -> String {
        match self.peek() {
            None => "the end of the recipe".to_string(),
            Some(c) => format!("{c:?}"),
        }
    }

    fn expect(&mut self, c: char, what: &str) -> Result<(), RecipeError> {
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            let found = self.found();
            Err(self.error(format!("expected {what}, found {found}")))
        }
    }

    /// The word at the cursor. Names are ASCII, but a word runs on over
    /// any letters and digits, so that `pérlin` is reported whole (an
    /// unknown name) rather than as `p` followed by stray text.
    fn name(&mut self) -> Option<(usize, String)> {
        self.skip_space();
        let rest = &self.text[self.at..];
        let word_start = |c: char| c.is_alphabetic() || c == '_';
        if !rest.chars().next().is_some_and(word_start) {
            return None;
        }
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        let at = self.at;
        self.at += len;
        Some((at, rest[..len].to_string()))
    }

    pub(super) fn call(&mut self, depth: usize) -> Result<Call, RecipeError> {
        if depth >= MAX_RECIPE_DEPTH {
            return Err(self.error(format!("sources nested more than {MAX_RECIPE_DEPTH} deep")));
        }
        let Some((at, name)) = self.name() else {
            let found = self.found();
            return Err(self.error(format!("expected a source name, found {found}")));
        };
        let (kind, (min_inputs, max_inputs), keys) = self.kind(at, &name)?;
        let mut call = Call {
            name,
            at,
            kind,
            inputs: Vec::new(),
            params: Vec::new(),
            parens: false,
            order: Vec::new(),
        };
        if self.peek() == Some('(') {
            self.at += 1;
            call.parens = true;
            while self.peek() != Some(')') {
                self.argument(&mut call, max_inputs, keys, depth)?;
                if self.peek() == Some(',') {
                    self.at += 1;
                } else if self.peek() != Some(')') {
                    let found = self.found();
                    return Err(self.error(format!(
                        "expected ',' or ')' in the arguments of {}, found {found}",
                        call.name
                    )));
                }
            }
            self.at += 1;
        }
        if call.inputs.len() < min_inputs {
            return Err(RecipeError::at(
                self.text,
                at,
                format!(
                    "{} takes {} input source{} and was given {}",
                    call.name,
                    min_inputs,
                    if min_inputs == 1 { "" } else { "s" },
                    call.inputs.len()
                ),
            ));
        }
        Ok(call)
    }

    #[allow(clippy::type_complexity)]
    fn kind(
        &self,
        at: usize,
        name: &str,
    ) -> Result<(SourceKind, (usize, usize), &'static [&'static str]), RecipeError> {
        if let Some(b) = BUILT_IN.iter().find(|b| b.name == name) {
            return Ok((b.kind, b.inputs, b.params));
        }
        if let Some(i) = self.users.iter().position(|u| u.0 == name) {
            return Ok((SourceKind::User(i), (0, 0), &[]));
        }
        let mut known: Vec<&str> = BUILT_IN.iter().map(|b| b.name).collect();
        known.extend(self.users.iter().map(|u| u.0));
        Err(RecipeError::at(
            self.text,
            at,
            format!(
                "unknown source {}; known: {}",
                clip(&format!("{name:?}")),
                known.join(", ")
            ),
        ))
    }

    fn argument(
        &mut self,
        call: &mut Call,
        max_inputs: usize,
        keys: &[&str],
        depth: usize,
    ) -> Result<(), RecipeError> {
        let start = self.at;
        let named = self.name();
        if let Some((at, key)) = named.clone()
            && self.peek() == Some('=')
        {
            self.at += 1;
            if !keys.contains(&key.as_str()) {
                let takes = if keys.is_empty() {
                    format!("{} takes no parameters", call.name)
                } else {
                    format!("{} takes {}", call.name, keys.join(", "))
                };
                return Err(RecipeError::at(
                    self.text,
                    at,
                    format!("unknown parameter {}: {takes}", clip(&format!("{key:?}"))),
                ));
            }
            if call.params.iter().any(|p| p.key == key) {
                return Err(RecipeError::at(
                    self.text,
                    at,
                    format!("parameter {key:?} given twice"),
                ));
            }
            self.skip_space();
            let value_at = self.at;
            let value = self.value(0)?;
            call.params.push(Param {
                key,
                at,
                value,
                value_at,
            });
            call.order.push(false);
            return Ok(());
        }
        // An input source: parse it from its start.
        self.at = start;
        self.skip_space();
        let input_at = self.at;
        if named.is_none() {
            let found = self.found();
            return Err(self.error(format!(
                "expected an input source or a parameter (name=value), found {found}"
            )));
        }
        if call.inputs.len() == max_inputs {
            let limit = match max_inputs {
                0 => "no input sources".to_string(),
                1 => "at most 1 input source".to_string(),
                n => format!("at most {n} input sources"),
            };
            return Err(RecipeError::at(
                self.text,
                input_at,
                format!("{} takes {limit}", call.name),
            ));
        }
        let input = self.call(depth + 1)?;
        call.inputs.push(input);
        call.order.push(true);
        Ok(())
    }

    fn value(&mut self, depth: usize) -> Result<Val, RecipeError> {
        self.skip_space();
        let rest = &self.text[self.at..];
        match rest.chars().next() {
            Some('[') | Some('(') if depth >= 2 => {
                Err(self.error("lists nest at most two deep ([(x, y), ...])"))
            }
            Some('[') => {
                self.at += 1;
                let mut items = Vec::new();
                while self.peek() != Some(']') {
                    if items.len() == MAX_LIST {
                        return Err(self.error(format!("a list holds at most {MAX_LIST} values")));
                    }
                    self.skip_space();
                    let at = self.at;
                    items.push((at, self.value(depth + 1)?));
                    if self.peek() == Some(',') {
                        self.at += 1;
                    } else if self.peek() != Some(']') {
                        let found = self.found();
                        return Err(self.error(format!("expected ',' or ']', found {found}")));
                    }
                }
                self.at += 1;
                Ok(Val::List(items))
            }
            Some('(') => {
                self.at += 1;
                self.skip_space();
                let a = (self.at, self.value(depth + 1)?);
                self.expect(',', "',' between the two numbers of a pair")?;
                self.skip_space();
                let b = (self.at, self.value(depth + 1)?);
                self.expect(')', "')' after a pair")?;
                Ok(Val::Pair(Box::new(a), Box::new(b)))
            }
            Some(c) if c.is_ascii_digit() || matches!(c, '-' | '+' | '.') => {
                let len = number_len(rest);
                if len == 0 {
                    return Err(self.error(format!("expected a number, found {c:?}")));
                }
                self.at += len;
                Ok(Val::Number(rest[..len].to_string()))
            }
            Some(c) if c.is_alphabetic() || c == '_' => {
                let (_, word) = self.name().expect("a name starts here");
                Ok(Val::Word(word))
            }
            _ => {
                let found = self.found();
                Err(self.error(format!("expected a value, found {found}")))
            }
        }
    }
}

/// The length of the number at the start of `s` (`[+-]digits[.digits][e[+-]digits]`,
/// digits on at least one side of the point), 0 if none.
fn number_len(s: &str) -> usize {
    let b = s.as_bytes();
    let digits = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let int_end = digits(i);
    let mut end = int_end;
    let mut any = int_end > i;
    i = int_end;
    if b.get(i) == Some(&b'.') {
        let frac_end = digits(i + 1);
        any |= frac_end > i + 1;
        end = frac_end;
        i = frac_end;
    }
    if !any {
        return 0;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exp_end = digits(j);
        if exp_end > j {
            end = exp_end;
        }
    }
    end
}
