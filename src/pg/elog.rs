//! `errstart` (src/backend/utils/error/elog.c): the first call of every `ereport`/`elog`,
//! which decides whether the report goes anywhere. A `DEBUG` report under the default
//! settings goes nowhere: `errstart` returns false and the message's arguments are never
//! evaluated. PostgreSQL 18's asynchronous I/O makes 18 such calls a buffer read
//! (`pgaio_debug_io` at every handle state change and callback), so their cost is part of
//! every read.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// Message levels (elog.h).
pub const DEBUG5: i32 = 10;
/// `DEBUG4`.
pub const DEBUG4: i32 = 11;
/// `DEBUG3`.
pub const DEBUG3: i32 = 12;
/// `LOG`.
pub const LOG: i32 = 15;
/// `LOG_SERVER_ONLY`.
pub const LOG_SERVER_ONLY: i32 = 16;
/// `INFO`.
pub const INFO: i32 = 17;
/// `NOTICE`.
pub const NOTICE: i32 = 18;
/// `WARNING`.
pub const WARNING: i32 = 19;
/// `WARNING_CLIENT_ONLY`.
pub const WARNING_CLIENT_ONLY: i32 = 20;
/// `ERROR`.
pub const ERROR: i32 = 21;
/// `FATAL`.
pub const FATAL: i32 = 22;

/// `log_min_messages` (default `WARNING`). The settings are globals a backend reads on every
/// report, as PostgreSQL's GUC variables are: atomics, so the compiler cannot fold the test.
pub static LOG_MIN_MESSAGES: AtomicI32 = AtomicI32::new(WARNING);
/// `client_min_messages` (default `NOTICE`).
pub static CLIENT_MIN_MESSAGES: AtomicI32 = AtomicI32::new(NOTICE);
/// `whereToSendOutput == DestRemote`: a backend serving a client.
pub static DEST_REMOTE: AtomicBool = AtomicBool::new(true);
/// `ClientAuthInProgress`.
pub static CLIENT_AUTH_IN_PROGRESS: AtomicBool = AtomicBool::new(false);

/// `is_log_level_output`: whether `elevel` passes the server log's threshold (`LOG` ranks
/// between `ERROR` and `FATAL` there).
#[inline(always)]
fn is_log_level_output(elevel: i32, log_min_level: i32) -> bool {
    if elevel == LOG || elevel == LOG_SERVER_ONLY {
        log_min_level == LOG || log_min_level <= ERROR
    } else if elevel == WARNING_CLIENT_ONLY {
        false
    } else if log_min_level == LOG {
        elevel >= FATAL
    } else {
        elevel >= log_min_level
    }
}

/// `should_output_to_client`.
#[inline(always)]
fn should_output_to_client(elevel: i32) -> bool {
    if DEST_REMOTE.load(Ordering::Relaxed) && elevel != LOG_SERVER_ONLY {
        if CLIENT_AUTH_IN_PROGRESS.load(Ordering::Relaxed) {
            return elevel >= ERROR;
        }
        return elevel >= CLIENT_MIN_MESSAGES.load(Ordering::Relaxed) || elevel == INFO;
    }
    false
}

#[cold]
#[inline(never)]
fn would_report(elevel: i32) -> ! {
    panic!("a level {elevel} report would be written: the error stack is not modelled")
}

/// `errstart`: false for a report below `ERROR` that neither the server log nor the client
/// would get, which is every `DEBUG` report under the defaults. Anything that would be
/// reported is outside the model. A real call, as in elog.c.
#[inline(never)]
pub fn errstart(elevel: i32, _domain: *const u8) -> bool {
    if elevel >= ERROR {
        would_report(elevel);
    }
    let output_to_server = is_log_level_output(elevel, LOG_MIN_MESSAGES.load(Ordering::Relaxed));
    let output_to_client = should_output_to_client(elevel);
    if !output_to_server && !output_to_client {
        return false;
    }
    would_report(elevel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_reports_go_nowhere_under_the_defaults() {
        for l in [DEBUG5, DEBUG4, DEBUG3] {
            assert!(!errstart(l, std::ptr::null()));
        }
        assert!(is_log_level_output(WARNING, WARNING) && !is_log_level_output(DEBUG3, WARNING));
        assert!(is_log_level_output(LOG, WARNING), "LOG ranks above WARNING in the server log");
        assert!(!should_output_to_client(DEBUG3) && should_output_to_client(NOTICE) && should_output_to_client(INFO));
    }
}
