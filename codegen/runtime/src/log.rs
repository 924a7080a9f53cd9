//! Behind the `unknown-members-log` feature, for tests: every member a read keeps
//! in an [`Extra`](crate::Extra) (one the type does not name), recorded on the
//! reading thread. Input the schema fully describes leaves none, at any depth;
//! a test that reads such input and finds some has caught a misnamed member or
//! a union that chose the wrong member.

use std::cell::RefCell;

thread_local! {
    static KEPT: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Records a member kept as unknown.
#[inline]
pub fn record(key: &str) {
    KEPT.with(|k| k.borrow_mut().push(key.to_string()));
}

/// The members kept as unknown on this thread since the last call, in the order
/// they were read; the record starts empty again.
pub fn take_unknown_members() -> Vec<String> {
    KEPT.with(|k| std::mem::take(&mut *k.borrow_mut()))
}

/// Where the record is now, for [`rewind`].
pub fn mark() -> usize {
    KEPT.with(|k| k.borrow().len())
}

/// Forgets what was recorded since `mark` (a union's member that did not read).
pub fn rewind(mark: usize) {
    KEPT.with(|k| k.borrow_mut().truncate(mark));
}
