//! PostgreSQL 18's asynchronous I/O as one synchronous buffer read runs it
//! (src/backend/storage/aio/aio.c, aio_callback.c, aio_io.c, aio_target.c; md.c's
//! `mdstartreadv` and `md_readv_complete`; fd.c's `FileStartReadV`; smgr.c's
//! `smgrstartreadv`; condition_variable.c's broadcast).
//!
//! `ReadBuffer` asks for its one block `READ_BUFFERS_SYNCHRONOUSLY`, so the handle is flagged
//! `PGAIO_HF_SYNCHRONOUS` and, under every `io_method` (the default `worker` included), the
//! backend performs the `pread` itself: it takes an idle handle, registers the shared-buffer
//! and md callbacks, stages the I/O (the buffer gets the I/O's own pin and wait reference),
//! "submits" it, reads, runs the shared completion (md's length check, then the page verified
//! and the buffer made valid) and the local one, and gives the handle back, all before
//! `smgrstartreadv` returns. Every state change and callback logs at `DEBUG3`-`DEBUG5`:
//! 18 `errstart` calls a read, each returning false. No I/O worker, queue or latch is touched.
//!
//! Left out: handles that are not synchronous (read streams' batches: `pgaio_submit_staged`
//! and the I/O method's submission), waiting for another backend's I/O, errors and their
//! reports (`pgaio_result_report`), local (temporary) buffers, multi-block reads.

use super::*;
use crate::pg::elog::{DEBUG3, DEBUG4, DEBUG5, errstart};

/// `PGAIO_HF_SYNCHRONOUS` and `PGAIO_HF_BUFFERED` (aio.h).
pub(super) const PGAIO_HF_SYNCHRONOUS: u8 = 1 << 0;
pub(super) const PGAIO_HF_BUFFERED: u8 = 1 << 2;
/// `PGAIO_HANDLE_MAX_CALLBACKS`.
const PGAIO_HANDLE_MAX_CALLBACKS: usize = 4;
/// `io_max_concurrency`'s handles for this backend (64 under 128 MB of `shared_buffers`).
const PGAIO_BACKEND_HANDLES: usize = 64;
/// `PG_IOV_MAX` iovecs a handle.
const PG_IOV_MAX: usize = 16;

/// `PgAioHandleState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum IoState {
    Idle,
    HandedOut,
    Defined,
    Staged,
    Submitted,
    CompletedIo,
    CompletedShared,
    CompletedLocal,
}

/// `PgAioOp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum IoOp {
    Invalid,
    Readv,
}

/// `PgAioTargetID`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum IoTarget {
    Invalid,
    Smgr,
}

/// `PgAioHandleCallbackID`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum CallbackId {
    Invalid = 0,
    MdReadv = 1,
    SharedBufferReadv = 2,
}

/// `PgAioResultStatus`.
pub(super) const PGAIO_RS_UNKNOWN: u8 = 0;
pub(super) const PGAIO_RS_OK: u8 = 1;

/// `PgAioResult`: 8 bytes (the callback that set it, status, error data, result).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PgAioResult {
    pub(super) id: u8,
    pub(super) status: u8,
    pub(super) error_data: u16,
    pub(super) result: i32,
}

/// `PgAioTargetData.smgr`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(super) struct SmgrTargetData {
    pub(super) rlocator: RelFileLocator,
    pub(super) block_num: BlockNumber,
    pub(super) nblocks: u32,
    pub(super) fork_num: i32,
    pub(super) is_temp: bool,
    pub(super) skip_fsync: bool,
}

impl Default for SmgrTargetData {
    fn default() -> Self {
        SmgrTargetData { rlocator: RelFileLocator { spc_oid: 0, db_oid: 0, rel_number: 0 }, block_num: 0, nblocks: 0, fork_num: 0, is_temp: false, skip_fsync: false }
    }
}

/// `PgAioReturn`: where the issuer finds the distilled result and the target.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PgAioReturn {
    pub(super) result: PgAioResult,
    pub(super) target_data: SmgrTargetData,
}

/// `PgAioWaitRef`: a handle's index and its generation, split in two words; an index of
/// `u32::MAX` is no I/O (the default, as `pgaio_wref_clear` leaves it).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PgAioWaitRef {
    aio_index: u32,
    generation_upper: u32,
    generation_lower: u32,
}

impl Default for PgAioWaitRef {
    fn default() -> Self {
        PgAioWaitRef { aio_index: u32::MAX, generation_upper: 0, generation_lower: 0 }
    }
}

/// `PgAioOpData.read`.
#[derive(Clone, Copy, Debug, Default)]
struct ReadOpData {
    fd: i32,
    iov_length: u16,
    offset: u64,
}

/// `PgAioHandle`, the fields a read uses.
pub(super) struct PgAioHandle {
    state: IoState,
    target: IoTarget,
    op: IoOp,
    flags: u8,
    num_callbacks: u8,
    callbacks: [CallbackId; PGAIO_HANDLE_MAX_CALLBACKS],
    callbacks_data: [u8; PGAIO_HANDLE_MAX_CALLBACKS],
    handle_data_len: u8,
    owner_procno: i32,
    result: i32,
    in_flight: bool,
    registered: bool,
    generation: u64,
    /// `cv`'s mutex (no waiters in one backend).
    cv: std::sync::atomic::AtomicBool,
    distilled_result: PgAioResult,
    iovec_off: u32,
    report_return: *mut PgAioReturn,
    op_data: ReadOpData,
    target_data: SmgrTargetData,
}

/// `PgAioCtl` (the handles, their iovecs and handle data) and `PgAioBackend` (this backend's
/// idle and in-flight lists, the handle it holds, its staged count), with the resource
/// owner's list of handles. The lists are index stacks sized at start: no allocation a read.
pub(super) struct PgAio {
    handles: Box<[PgAioHandle]>,
    iovecs: Box<[libc::iovec]>,
    handle_data: Box<[u64]>,
    idle: Vec<u32>,
    in_flight: Vec<u32>,
    handed_out: Option<u32>,
    num_staged: u32,
    owner_ios: Vec<u32>,
    /// `MyProcNumber`.
    procno: i32,
}

impl PgAio {
    /// `pgaio_init_backend`: every handle idle.
    pub(super) fn new() -> PgAio {
        let n = PGAIO_BACKEND_HANDLES;
        let handles = (0..n)
            .map(|i| PgAioHandle {
                state: IoState::Idle,
                target: IoTarget::Invalid,
                op: IoOp::Invalid,
                flags: 0,
                num_callbacks: 0,
                callbacks: [CallbackId::Invalid; PGAIO_HANDLE_MAX_CALLBACKS],
                callbacks_data: [0; PGAIO_HANDLE_MAX_CALLBACKS],
                handle_data_len: 0,
                owner_procno: 0,
                result: 0,
                in_flight: false,
                registered: false,
                generation: 1,
                cv: std::sync::atomic::AtomicBool::new(false),
                distilled_result: PgAioResult::default(),
                iovec_off: (i * PG_IOV_MAX) as u32,
                report_return: std::ptr::null_mut(),
                op_data: ReadOpData::default(),
                target_data: SmgrTargetData::default(),
            })
            .collect();
        let iov = libc::iovec { iov_base: std::ptr::null_mut(), iov_len: 0 };
        let mut idle = Vec::with_capacity(n);
        idle.extend((0..n as u32).rev());
        PgAio {
            handles,
            iovecs: vec![iov; n * PG_IOV_MAX].into_boxed_slice(),
            handle_data: vec![0; n * PG_IOV_MAX].into_boxed_slice(),
            idle,
            in_flight: Vec::with_capacity(n),
            handed_out: None,
            num_staged: 0,
            owner_ios: Vec::with_capacity(n),
            procno: 0,
        }
    }

    /// Whether every handle is idle and back on the idle list, none in flight, handed out
    /// or owned: true between reads.
    pub(super) fn quiescent(&self) -> bool {
        self.handles.iter().all(|h| h.state == IoState::Idle && !h.in_flight && !h.registered)
            && self.idle.len() == self.handles.len()
            && self.in_flight.is_empty()
            && self.owner_ios.is_empty()
            && self.handed_out.is_none()
    }

    /// I/Os completed and reclaimed (each advances its handle's generation).
    pub(super) fn reclaimed(&self) -> u64 {
        self.handles.iter().map(|h| h.generation - 1).sum()
    }
}

/// Waiting for an I/O that is not complete, or one without a result: a synchronous read is
/// complete before its issuer waits.
#[cold]
#[inline(never)]
pub(super) fn wait_not_modelled() -> ! {
    aio_not_modelled("waiting for an I/O (pgaio_wref_wait)")
}

#[cold]
#[inline(never)]
fn aio_not_modelled(what: &str) -> ! {
    panic!("PostgreSQL 18's AIO: {what} is not modelled (one synchronous read at a time)")
}

/// `pgaio_io_update_state`: the `DEBUG5` report, a write barrier, the new state.
#[inline(always)]
fn update_state(h: &mut PgAioHandle, state: IoState) {
    errstart(DEBUG5, std::ptr::null());
    std::sync::atomic::compiler_fence(Ordering::Release);
    h.state = state;
}

/// `pgaio_io_acquire_nb`: an idle handle for this backend, handed out, registered with the
/// resource owner (`ResourceOwnerRememberAioHandle`), its result reported into `ret`.
#[inline(never)]
pub(super) fn pgaio_io_acquire_nb(bm: &mut BufMgr, ret: *mut PgAioReturn) -> Option<u32> {
    let aio = &mut bm.aio;
    if aio.num_staged > 0 {
        aio_not_modelled("submitting staged I/O");
    }
    if aio.handed_out.is_some() {
        aio_not_modelled("a second handle handed out");
    }
    bm.interrupt_holdoff_count += 1;
    let Some(i) = aio.idle.pop() else {
        bm.interrupt_holdoff_count -= 1;
        return None;
    };
    let procno = aio.procno;
    let h = &mut aio.handles[i as usize];
    update_state(h, IoState::HandedOut);
    h.owner_procno = procno;
    aio.handed_out = Some(i);
    resource_owner_remember_aio_handle(aio, i);
    aio.handles[i as usize].report_return = ret;
    if !ret.is_null() {
        // SAFETY: the caller's live return slot.
        unsafe { (*ret).result.status = PGAIO_RS_UNKNOWN };
    }
    bm.interrupt_holdoff_count -= 1;
    Some(i)
}

/// `ResourceOwnerRememberAioHandle`: the handle onto the owner's list.
#[inline(never)]
fn resource_owner_remember_aio_handle(aio: &mut PgAio, i: u32) {
    aio.owner_ios.push(i);
    aio.handles[i as usize].registered = true;
}

/// `ResourceOwnerForgetAioHandle`: the handle off the owner's list.
#[inline(never)]
fn resource_owner_forget_aio_handle(aio: &mut PgAio, i: u32) {
    let Some(at) = aio.owner_ios.iter().rposition(|&x| x == i) else { aio_not_modelled("forgetting a handle the owner lacks") };
    aio.owner_ios.swap_remove(at);
    aio.handles[i as usize].registered = false;
}

/// `pgaio_have_staged`.
#[inline(never)]
pub(super) fn pgaio_have_staged(aio: &PgAio) -> bool {
    aio.num_staged > 0
}

/// `pgaio_io_get_wref`: index and generation into `wref`.
#[inline(never)]
pub(super) fn pgaio_io_get_wref(aio: &PgAio, i: u32, wref: &mut PgAioWaitRef) {
    let g = aio.handles[i as usize].generation;
    wref.aio_index = i;
    wref.generation_upper = (g >> 32) as u32;
    wref.generation_lower = g as u32;
}

/// `pgaio_wref_clear`.
#[inline(never)]
pub(super) fn pgaio_wref_clear(wref: &mut PgAioWaitRef) {
    wref.aio_index = u32::MAX;
}

/// `pgaio_wref_valid`.
#[inline(never)]
pub(super) fn pgaio_wref_valid(wref: &PgAioWaitRef) -> bool {
    wref.aio_index != u32::MAX
}

/// `pgaio_io_set_handle_data_32`: the buffers the I/O is for, widened into the handle's data.
#[inline(never)]
pub(super) fn pgaio_io_set_handle_data_32(aio: &mut PgAio, i: u32, data: &[u32]) {
    let off = aio.handles[i as usize].iovec_off as usize;
    for (k, &d) in data.iter().enumerate() {
        aio.handle_data[off + k] = d as u64;
    }
    aio.handles[i as usize].handle_data_len = data.len() as u8;
}

/// `pgaio_io_get_handle_data`.
#[inline(never)]
fn pgaio_io_get_handle_data(aio: &PgAio, i: u32) -> (usize, usize) {
    let h = &aio.handles[i as usize];
    (h.iovec_off as usize, h.handle_data_len as usize)
}

/// `pgaio_io_register_callbacks`: one more callback and its data, with its `DEBUG3` report.
#[inline(never)]
pub(super) fn pgaio_io_register_callbacks(aio: &mut PgAio, i: u32, cb: CallbackId, data: u8) {
    let h = &mut aio.handles[i as usize];
    if h.num_callbacks as usize >= PGAIO_HANDLE_MAX_CALLBACKS {
        aio_not_modelled("more than four callbacks");
    }
    h.callbacks[h.num_callbacks as usize] = cb;
    h.callbacks_data[h.num_callbacks as usize] = data;
    h.num_callbacks += 1;
    errstart(DEBUG3, std::ptr::null());
}

/// `pgaio_io_set_flag`.
#[inline(never)]
pub(super) fn pgaio_io_set_flag(aio: &mut PgAio, i: u32, flag: u8) {
    aio.handles[i as usize].flags |= flag;
}

/// `pgaio_io_get_target_data`.
#[inline(never)]
fn pgaio_io_get_target_data(aio: &mut PgAio, i: u32) -> *mut SmgrTargetData {
    &raw mut aio.handles[i as usize].target_data
}

/// `pgaio_io_set_target`.
#[inline(never)]
fn pgaio_io_set_target(aio: &mut PgAio, i: u32, target: IoTarget) {
    aio.handles[i as usize].target = target;
}

/// `pgaio_io_set_target_smgr` (smgr.c): the relation, fork and blocks the I/O is for.
#[inline(never)]
fn pgaio_io_set_target_smgr(aio: &mut PgAio, i: u32, rel: &RelFileLocator, fork: i32, block: BlockNumber, nblocks: u32) {
    let sd = pgaio_io_get_target_data(aio, i);
    pgaio_io_set_target(aio, i, IoTarget::Smgr);
    // SAFETY: the handle's own target data.
    unsafe {
        (*sd).rlocator = *rel;
        (*sd).fork_num = fork;
        (*sd).block_num = block;
        (*sd).nblocks = nblocks;
        (*sd).is_temp = false;
        (*sd).skip_fsync = false;
    }
}

/// `pgaio_io_get_iovec`: the handle's iovec array.
#[inline(never)]
fn pgaio_io_get_iovec(aio: &mut PgAio, i: u32) -> *mut libc::iovec {
    let off = aio.handles[i as usize].iovec_off as usize;
    &raw mut aio.iovecs[off]
}

/// `smgrstartreadv` -> `mdstartreadv` (the segment's file: `_mdfd_getseg`; one iovec for the
/// block; the smgr target; md's completion callback) -> `FileStartReadV` (`FileAccess`: the
/// file is open and first in the LRU) -> `pgaio_io_start_readv` -> `pgaio_io_stage`, which for a
/// synchronous handle runs the whole read. Interrupts held meanwhile.
///
/// # Safety
/// `buf` is the buffer's `BLCKSZ` bytes; `i` a handle this backend holds.
#[inline(never)]
pub(super) unsafe fn smgrstartreadv(bm: &mut BufMgr, i: u32, rel: &RelFileLocator, fork: i32, block: BlockNumber, buf: *mut u8) {
    bm.interrupt_holdoff_count += 1;
    unsafe { mdstartreadv(bm, i, rel, fork, block, buf) };
    bm.interrupt_holdoff_count -= 1;
}

/// `mdstartreadv`.
#[inline(never)]
unsafe fn mdstartreadv(bm: &mut BufMgr, i: u32, rel: &RelFileLocator, fork: i32, block: BlockNumber, buf: *mut u8) {
    // _mdfd_getseg: the relation's one segment, open.
    let Some(st) = bm.storage.as_ref() else { miss(&rel.tag(block)) };
    let Some((_, f)) = st.files.iter().find(|(l, _)| l == rel) else { miss(&rel.tag(block)) };
    let fd = std::os::fd::AsRawFd::as_raw_fd(f);
    let iov = pgaio_io_get_iovec(&mut bm.aio, i);
    // SAFETY: the handle's iovec array has PG_IOV_MAX slots.
    unsafe { *iov = libc::iovec { iov_base: buf.cast(), iov_len: BLCKSZ } };
    pgaio_io_set_flag(&mut bm.aio, i, PGAIO_HF_BUFFERED);
    pgaio_io_set_target_smgr(&mut bm.aio, i, rel, fork, block, 1);
    pgaio_io_register_callbacks(&mut bm.aio, i, CallbackId::MdReadv, 0);
    unsafe { file_start_readv(bm, i, fd, 1, block as u64 * BLCKSZ as u64) };
}

/// `FileStartReadV` (`FileAccess` finds the file first in the LRU ring: nothing to do).
#[inline(never)]
unsafe fn file_start_readv(bm: &mut BufMgr, i: u32, fd: i32, iovcnt: u16, offset: u64) {
    if fd < 0 {
        aio_not_modelled("reopening a closed virtual file descriptor");
    }
    pgaio_io_start_readv(&mut bm.aio, i, fd, iovcnt, offset);
    unsafe { pgaio_io_stage(bm, i) };
}

/// `pgaio_io_start_readv`: the operation's data.
#[inline(never)]
fn pgaio_io_start_readv(aio: &mut PgAio, i: u32, fd: i32, iovcnt: u16, offset: u64) {
    let h = &mut aio.handles[i as usize];
    h.op_data = ReadOpData { fd, iov_length: iovcnt, offset };
}

/// `pgaio_io_stage`: the handle defined, the callbacks' stage functions run, staged; then,
/// being synchronous, prepared for submission and performed at once.
#[inline(never)]
unsafe fn pgaio_io_stage(bm: &mut BufMgr, i: u32) {
    bm.interrupt_holdoff_count += 1;
    let h = &mut bm.aio.handles[i as usize];
    h.op = IoOp::Readv;
    h.result = 0;
    update_state(h, IoState::Defined);
    bm.aio.handed_out = None;
    unsafe { pgaio_io_call_stage(bm, i) };
    update_state(&mut bm.aio.handles[i as usize], IoState::Staged);
    let synchronous = pgaio_io_needs_synchronous_execution(&bm.aio, i);
    errstart(DEBUG3, std::ptr::null());
    if !synchronous {
        aio_not_modelled("staging an asynchronous I/O");
    }
    pgaio_io_prepare_submit(&mut bm.aio, i);
    unsafe { pgaio_io_perform_synchronously(bm, i) };
    bm.interrupt_holdoff_count -= 1;
}

/// `pgaio_io_call_stage`: each registered callback's stage function, the last registered
/// first, each with its `DEBUG3` report (md has none).
#[inline(never)]
unsafe fn pgaio_io_call_stage(bm: &mut BufMgr, i: u32) {
    let h = &bm.aio.handles[i as usize];
    for k in (0..h.num_callbacks as usize).rev() {
        let (cb, data) = (bm.aio.handles[i as usize].callbacks[k], bm.aio.handles[i as usize].callbacks_data[k]);
        if cb == CallbackId::SharedBufferReadv {
            errstart(DEBUG3, std::ptr::null());
            shared_buffer_readv_stage(bm, i, data);
        }
    }
}

/// `pgaio_io_needs_synchronous_execution`: a synchronous handle needs no question to the I/O
/// method.
#[inline(never)]
fn pgaio_io_needs_synchronous_execution(aio: &PgAio, i: u32) -> bool {
    if aio.handles[i as usize].flags & PGAIO_HF_SYNCHRONOUS != 0 {
        return true;
    }
    aio_not_modelled("asking the I/O method")
}

/// `pgaio_io_prepare_submit`: submitted, onto the in-flight list.
#[inline(never)]
fn pgaio_io_prepare_submit(aio: &mut PgAio, i: u32) {
    update_state(&mut aio.handles[i as usize], IoState::Submitted);
    aio.in_flight.push(i);
    aio.handles[i as usize].in_flight = true;
}

#[cold]
#[inline(never)]
fn read_failed(fd: i32, offset: u64, got: isize) -> ! {
    panic!("could not read {BLCKSZ} bytes at offset {offset} of fd {fd}: read only {got}")
}

/// `pgaio_io_perform_synchronously`: by the handle's operation, a read; `pg_preadv` of one iovec is a `pread(2)` (in a critical
/// section, between the wait event's start and end); then the completion.
#[inline(never)]
unsafe fn pgaio_io_perform_synchronously(bm: &mut BufMgr, i: u32) {
    let h = &bm.aio.handles[i as usize];
    if h.op != IoOp::Readv {
        aio_not_modelled("an operation other than a read");
    }
    let (op, iov) = (h.op_data, bm.aio.iovecs[h.iovec_off as usize]);
    if op.iov_length != 1 {
        aio_not_modelled("a vectored read");
    }
    // SAFETY: the iovec the md layer filled: a live buffer of iov_len bytes; fd is open.
    let got = unsafe { libc::pread(op.fd, iov.iov_base, iov.iov_len, op.offset as libc::off_t) };
    if got != BLCKSZ as isize {
        read_failed(op.fd, op.offset, got);
    }
    bm.aio.handles[i as usize].result = got as i32;
    unsafe { pgaio_io_process_completion(bm, i, got as i32) };
}

/// `pgaio_io_process_completion`: the shared callbacks, the handle's condition variable
/// broadcast, and, this backend being the owner, the handle reclaimed.
#[inline(never)]
unsafe fn pgaio_io_process_completion(bm: &mut BufMgr, i: u32, result: i32) {
    let h = &mut bm.aio.handles[i as usize];
    h.result = result;
    update_state(h, IoState::CompletedIo);
    unsafe { pgaio_io_call_complete_shared(bm, i) };
    update_state(&mut bm.aio.handles[i as usize], IoState::CompletedShared);
    condition_variable_broadcast(&bm.aio.handles[i as usize].cv);
    if bm.aio.handles[i as usize].owner_procno == bm.aio.procno {
        unsafe { pgaio_io_reclaim(bm, i) };
    }
}

/// `pgaio_io_call_complete_shared`: the callbacks' shared completions, last registered first,
/// each with its `DEBUG4` report, the result passed along; the distilled result reported.
#[inline(never)]
unsafe fn pgaio_io_call_complete_shared(bm: &mut BufMgr, i: u32) {
    let h = &bm.aio.handles[i as usize];
    let mut result = PgAioResult { id: CallbackId::Invalid as u8, status: PGAIO_RS_OK, error_data: 0, result: h.result };
    for k in (0..h.num_callbacks as usize).rev() {
        let (cb, data) = (bm.aio.handles[i as usize].callbacks[k], bm.aio.handles[i as usize].callbacks_data[k]);
        errstart(DEBUG4, std::ptr::null());
        result = match cb {
            CallbackId::MdReadv => md_readv_complete(bm, i, result, data),
            CallbackId::SharedBufferReadv => unsafe { shared_buffer_readv_complete(bm, i, result, data) },
            CallbackId::Invalid => result,
        };
    }
    bm.aio.handles[i as usize].distilled_result = result;
    errstart(DEBUG3, std::ptr::null());
}

/// `md_readv_complete`: the bytes read against the blocks asked for; `OK` with the block count.
#[inline(never)]
fn md_readv_complete(bm: &mut BufMgr, i: u32, prior: PgAioResult, _data: u8) -> PgAioResult {
    let sd = pgaio_io_get_target_data(&mut bm.aio, i);
    let mut result = prior;
    if prior.result < 0 {
        aio_not_modelled("a failed read");
    }
    let blocks = prior.result as usize / BLCKSZ;
    // SAFETY: the handle's own target data.
    if blocks as u32 != unsafe { (*sd).nblocks } {
        aio_not_modelled("a short read");
    }
    result.id = CallbackId::MdReadv as u8;
    result.result = blocks as i32;
    result
}

/// `pgaio_io_reclaim`: the local completions, the result copied to the issuer's return slot,
/// the handle off the in-flight list and the resource owner, its generation advanced, reset
/// field by field and pushed idle.
#[inline(never)]
unsafe fn pgaio_io_reclaim(bm: &mut BufMgr, i: u32) {
    bm.interrupt_holdoff_count += 1;
    unsafe { pgaio_io_call_complete_local(bm, i) };
    let aio = &mut bm.aio;
    let h = &mut aio.handles[i as usize];
    update_state(h, IoState::CompletedLocal);
    if !h.report_return.is_null() {
        // SAFETY: the issuer's return slot, live until it waited.
        unsafe {
            (*h.report_return).result = h.distilled_result;
            (*h.report_return).target_data = h.target_data;
        }
    }
    errstart(DEBUG4, std::ptr::null());
    if h.in_flight {
        let Some(at) = aio.in_flight.iter().rposition(|&x| x == i) else { aio_not_modelled("a handle off the in-flight list") };
        aio.in_flight.remove(at);
        aio.handles[i as usize].in_flight = false;
    }
    if aio.handles[i as usize].registered {
        resource_owner_forget_aio_handle(aio, i);
    }
    let h = &mut aio.handles[i as usize];
    h.generation += 1;
    update_state(h, IoState::Idle);
    h.op = IoOp::Invalid;
    h.target = IoTarget::Invalid;
    h.flags = 0;
    h.num_callbacks = 0;
    h.handle_data_len = 0;
    h.report_return = std::ptr::null_mut();
    h.result = 0;
    h.distilled_result.status = PGAIO_RS_UNKNOWN;
    aio.idle.push(i);
    bm.interrupt_holdoff_count -= 1;
}

/// `pgaio_io_call_complete_local`: the local completions (the shared buffers' returns at
/// once on success), each with its `DEBUG4` report, then the `DEBUG3` one after them.
#[inline(never)]
unsafe fn pgaio_io_call_complete_local(bm: &mut BufMgr, i: u32) {
    let h = &bm.aio.handles[i as usize];
    let mut result = h.distilled_result;
    for k in (0..h.num_callbacks as usize).rev() {
        if bm.aio.handles[i as usize].callbacks[k] == CallbackId::SharedBufferReadv {
            errstart(DEBUG4, std::ptr::null());
            result = shared_buffer_readv_complete_local(result);
        }
    }
    bm.aio.handles[i as usize].distilled_result = result;
    errstart(DEBUG3, std::ptr::null());
}

/// `ConditionVariableBroadcast` with nobody waiting: its mutex taken and released.
#[inline(never)]
pub(super) fn condition_variable_broadcast(cv: &std::sync::atomic::AtomicBool) {
    spin_lock(cv);
    spin_unlock(cv);
}

// ---------------------------------------------------------------------------------------------
// bufmgr.c's callbacks for a shared-buffer read.

/// `shared_buffer_readv_stage` (`buffer_stage_common`): each buffer takes the I/O's own pin
/// and its wait reference under the header lock, and the issuer's resource owner forgets the
/// buffer's I/O (the I/O subsystem owns it now).
#[inline(never)]
fn shared_buffer_readv_stage(bm: &mut BufMgr, i: u32, _data: u8) {
    let (off, len) = pgaio_io_get_handle_data(&bm.aio, i);
    let mut wref = PgAioWaitRef::default();
    pgaio_io_get_wref(&bm.aio, i, &mut wref);
    for k in 0..len {
        let buffer = bm.aio.handle_data[off + k] as Buffer;
        let d = &mut bm.descriptors[buffer as usize - 1];
        let state = lock_buf_hdr(d);
        d.io_wref = wref;
        unlock_buf_hdr(d, state + BUF_REFCOUNT_ONE);
        resource_owner_forget(&mut bm.owner, buffer as usize, &BUFFER_IO_RESOWNER_DESC);
    }
}

#[cold]
#[inline(never)]
fn invalid_page(tag: &BufferTag) -> ! {
    panic!("invalid page in block {} of relation {}", tag.block_num, tag.rel_number)
}

/// `shared_buffer_readv_complete` (`buffer_readv_complete` and, per buffer,
/// `buffer_readv_complete_one`): each page verified (`PageIsVerified`: the data checksum
/// when `DataChecksumsEnabled`, the header), then `TerminateBufferIO` with the I/O's pin
/// released.
#[inline(never)]
unsafe fn shared_buffer_readv_complete(bm: &mut BufMgr, i: u32, prior: PgAioResult, _data: u8) -> PgAioResult {
    let sd = pgaio_io_get_target_data(&mut bm.aio, i);
    let (off, len) = pgaio_io_get_handle_data(&bm.aio, i);
    // SAFETY: the handle's own target data.
    let nblocks = unsafe { (*sd).nblocks } as usize;
    let mut result = prior;
    for k in 0..len.min(nblocks) {
        let buffer = bm.aio.handle_data[off + k] as Buffer;
        let id = buffer as usize - 1;
        let tag = bm.descriptors[id].tag;
        let checksums = data_checksums_enabled(bm);
        if !page_is_verified(&mut bm.blocks[id].0, tag.block_num, checksums) {
            invalid_page(&tag);
        }
        terminate_buffer_io(bm, id, BM_VALID, false, true);
    }
    result.id = CallbackId::SharedBufferReadv as u8;
    result
}

/// `shared_buffer_readv_complete_local`: nothing to report on success.
#[inline(never)]
fn shared_buffer_readv_complete_local(prior: PgAioResult) -> PgAioResult {
    if prior.status != PGAIO_RS_OK {
        aio_not_modelled("reporting a failed read");
    }
    prior
}
