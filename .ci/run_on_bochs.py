"""Run a static x86_64 Linux test binary on the Bochs CPU emulator.

Why: the AVX-512 level's code runs natively only on CPUs that have AVX-512
F/BW/VBMI, and many of our development and CI machines have AVX2 only. The
Bochs CPU (the `bochscpu-python` package) decodes and executes AVX-512,
AVX-512 VBMI included, and its CPUID reports them, so the crate's own runtime
detection picks `Level::Avx512` there and the tests compare its bits with the
other levels and with the golden constants. Bits are real under emulation;
speed is not (the default-mode golden test: 0.16 s natively at three levels,
35 s here at four).

    python3 .ci/run_on_bochs.py [--count-instructions] BINARY [ARGS...]

BINARY must be a static, non-PIE x86_64 executable for musl (`--target
x86_64-unknown-linux-musl` with `-C relocation-model=static`). This is a
user-mode harness, not an OS: it loads the ELF, builds the initial stack
(arguments, the `NOISEFIELD_*` and `RUST_*` environment variables, the
auxiliary vector), and answers the system calls a single-threaded Rust test
binary makes: writes to stdout and stderr, reading host files (the tests'
data), anonymous memory, the clock, random bytes, and refusals for the rest
(no writing to files; `clone` fails with EAGAIN, so libtest runs each test on
the main thread, and a test that needs a second thread fails). The exit status is the
guest's; a CPU exception (a fault in the guest) exits with 101.

`--count-instructions` also prints how many instructions the guest retired
(a Python call per instruction: slow, for small workloads).
"""

import ctypes
import os
import struct
import sys
import time

import bochscpu
import bochscpu.cpu
import bochscpu.memory

PAGE = 4096

# Guest memory. The executable is mapped at its own addresses, identity-mapped
# (guest physical = virtual, below 1 GiB); the rest gets its own ranges of
# guest physical memory. Every page is backed by a host page before the run
# starts, so the guest never touches an unbacked page.
PAGE_TABLES_GPA = 0x4000_0000
STACK_TOP = 0x7FF0_0000_0000
STACK_SIZE = 64 << 20
STACK_GPA = 0x6000_0000
MMAP_VA = 0x7E00_0000_0000  # anonymous mappings (mmap)
MMAP_GPA = 0x8000_0000
MMAP_SIZE = 3 << 30
# LSTAR: where `syscall` jumps. The harness stops the CPU on that branch and
# answers the call, so this page (ud2s) runs only if that went wrong.
SYSCALL_ENTRY = 0x3FFF_F000

EAGAIN, EBADF, ENOMEM, ENOTTY, ENOSYS, ENOENT, EINVAL, EACCES = 11, 9, 12, 25, 38, 2, 22, 13

host_pages = {}  # guest physical page -> host address


def back(gpa):
    hva = bochscpu.memory.allocate_host_page()
    bochscpu.memory.page_insert(gpa, hva)
    host_pages[gpa] = hva


def unexpected_missing_page(gpa):
    raise RuntimeError(f"guest touched unbacked physical memory at {gpa:#x}")


def write(va, blob):
    assert bochscpu.memory.virt_write(PAGE_TABLES_GPA, va, list(blob)), hex(va)


def read(va, n):
    return bytes(bochscpu.memory.virt_read(PAGE_TABLES_GPA, va, n)) if n else b""


def read_c_string(va):
    blob = b""
    while b"\0" not in blob:
        at = va + len(blob)
        blob += read(at, min(64, PAGE - at % PAGE))  # never past a page it may not have
    return blob[: blob.index(b"\0")].decode()


files = set()  # the guest's open files: host descriptors, read only


class AnonymousMemory:
    """First-fit page allocator over the mmap range. Freed pages are zeroed
    at once, so a later mapping of them reads zeros, as `mmap` promises."""

    def __init__(self):
        self.free = [(MMAP_VA, MMAP_VA + MMAP_SIZE)]

    def map(self, size):
        size = (size + PAGE - 1) & ~(PAGE - 1)
        for i, (start, end) in enumerate(self.free):
            if end - start >= size:
                self.free[i] = (start + size, end)
                return start
        return None

    def unmap(self, va, size):
        size = (size + PAGE - 1) & ~(PAGE - 1)
        if va % PAGE or not (MMAP_VA <= va and va + size <= MMAP_VA + MMAP_SIZE):
            return -EINVAL
        for page in range(va, va + size, PAGE):
            ctypes.memset(host_pages[page - MMAP_VA + MMAP_GPA], 0, PAGE)
        merged = []
        for start, end in sorted(self.free + [(va, va + size)]):
            if merged and merged[-1][1] == start:
                merged[-1] = (merged[-1][0], end)
            elif start < end:
                merged.append((start, end))
        self.free = merged
        return 0


def load(path, argv, envp):
    """Maps the executable, the stack and the mmap range; returns the entry
    point and the initial stack pointer."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or struct.unpack_from("<H", data, 18)[0] != 62:
        sys.exit(f"{path}: not an x86_64 ELF executable")
    e_type, _, _, e_entry, e_phoff, _, _, _, e_phentsize, e_phnum = struct.unpack_from(
        "<HHIQQQIHHH", data, 16
    )
    if e_type != 2:
        sys.exit(f"{path}: not a static non-PIE executable (build with -C relocation-model=static)")
    # The page tables' owner: it frees the tables' host pages when collected,
    # so it lives as long as the run.
    global page_tables
    page_tables = bochscpu.memory.PageMapLevel4Table()

    def map_range(va, gpa, size):
        for offset in range(0, size, PAGE):
            if gpa + offset not in host_pages:  # segments may share a page
                page_tables.insert(va + offset, gpa + offset, 1)
                back(gpa + offset)

    loads = []
    for i in range(e_phnum):
        p_type, _, p_offset, p_vaddr, _, p_filesz, p_memsz, _ = struct.unpack_from(
            "<IIQQQQQQ", data, e_phoff + i * e_phentsize
        )
        if p_type == 3:  # PT_INTERP
            sys.exit(f"{path}: dynamically linked; build for x86_64-unknown-linux-musl")
        if p_type != 1:  # PT_LOAD
            continue
        start = p_vaddr & ~(PAGE - 1)
        end = (p_vaddr + p_memsz + PAGE - 1) & ~(PAGE - 1)
        if end > SYSCALL_ENTRY:
            sys.exit(f"{path}: segment at {p_vaddr:#x} is above the identity-mapped range")
        map_range(start, start, end - start)
        loads.append((p_vaddr, p_offset, p_filesz))

    map_range(MMAP_VA, MMAP_GPA, MMAP_SIZE)
    map_range(STACK_TOP - STACK_SIZE, STACK_GPA, STACK_SIZE)
    map_range(SYSCALL_ENTRY, SYSCALL_ENTRY, PAGE)
    for hva, gpa in page_tables.commit(PAGE_TABLES_GPA):
        bochscpu.memory.page_insert(gpa, hva)
    for p_vaddr, p_offset, p_filesz in loads:
        if p_filesz:
            write(p_vaddr, data[p_offset : p_offset + p_filesz])
    write(SYSCALL_ENTRY, b"\x0f\x0b" * 8)

    # The initial stack (System V ABI): argc, argv, envp, the auxiliary
    # vector, then the strings and AT_RANDOM's 16 bytes.
    strings = b""
    offsets = []
    for s in argv + envp:
        offsets.append(len(strings))
        strings += s.encode() + b"\0"
    random_offset = len(strings)
    strings += os.urandom(16)
    strings_va = (STACK_TOP - PAGE - len(strings)) & ~15
    # The program headers: inside the first PT_LOAD, which maps the file's start.
    phdr = min(va - off for va, off, _ in loads) + e_phoff
    auxv = [
        (3, phdr), (4, e_phentsize), (5, e_phnum), (6, PAGE), (9, e_entry),
        (11, 0), (12, 0), (13, 0), (14, 0), (16, 0), (17, 100), (23, 0),
        (25, strings_va + random_offset), (0, 0),
    ]  # fmt: skip
    words = [len(argv)]
    words += [strings_va + o for o in offsets[: len(argv)]] + [0]
    words += [strings_va + o for o in offsets[len(argv) :]] + [0]
    for key, value in auxv:
        words += [key, value]
    sp = (strings_va - 8 * len(words)) & ~15
    write(sp, struct.pack(f"<{len(words)}Q", *words))
    write(strings_va, strings)
    return e_entry, sp


def flat_segment(selector, attr, base=0):
    s = bochscpu.Segment()
    s.present = True
    s.selector = selector
    s.base = base
    s.limit = 0xFFFF_FFFF
    s.attr = attr
    return s


CODE = flat_segment(0x33, 0x22FB)  # 64-bit code, ring 3
DATA = flat_segment(0x2B, 0xCF3)


def system_call(nr, args, state, memory, clock_start):
    """Answers one system call: returns its result (a negative errno on
    failure) or ("exit", status)."""
    a = args
    if nr in (1, 20):  # write, writev
        if nr == 1:
            blob = read(a[1], a[2])
        else:
            blob = b""
            for i in range(a[2]):
                base, length = struct.unpack("<QQ", read(a[1] + 16 * i, 16))
                blob += read(base, length)
        if a[0] not in (1, 2):
            return -EBADF
        done = 0
        while done < len(blob):
            done += os.write(a[0], blob[done:])
        return len(blob)
    if nr == 9:  # mmap: anonymous, private, anywhere
        length, flags = a[1], a[3]
        if not flags & 0x20 or flags & 0x10 or length == 0:
            return -ENOMEM
        va = memory.map(length)
        return va if va is not None else -ENOMEM
    if nr == 11:  # munmap
        return memory.unmap(a[0], a[1])
    if nr in (10, 28):  # mprotect, madvise
        return 0
    if nr == 12:  # brk: the break stays where it is, so malloc uses mmap
        return 0
    if nr == 25:  # mremap: realloc then copies
        return -ENOMEM
    if nr == 158:  # arch_prctl
        if a[0] == 0x1002:  # ARCH_SET_FS: the thread pointer
            state.fs = flat_segment(0, 0xCF3, base=a[1])
            return 0
        return -EINVAL
    if nr in (39, 186, 218):  # getpid, gettid, set_tid_address
        return 1000
    if nr == 13:  # rt_sigaction: every old action is the default one
        if a[2]:
            write(a[2], bytes(32))
        return 0
    if nr == 131:  # sigaltstack: none yet
        if a[1]:
            write(a[1], struct.pack("<QiiQ", 0, 2, 0, 0))  # SS_DISABLE
        return 0
    if nr in (14, 7):  # rt_sigprocmask; poll (the standard descriptors are open)
        return 0
    if nr == 16:  # ioctl: no terminal
        return -ENOTTY
    if nr == 228:  # clock_gettime
        ns = time.monotonic_ns() - clock_start
        if a[0] in (0, 5, 8, 11):  # the realtime clocks
            ns = time.time_ns()
        write(a[1], struct.pack("<qq", ns // 10**9, ns % 10**9))
        return 0
    if nr == 318:  # getrandom
        write(a[0], os.urandom(a[1]))
        return a[1]
    if nr in (56, 435):  # clone, clone3: no threads
        return -EAGAIN
    if nr == 202:  # futex: one thread, so nobody waits
        return 0
    if nr == 204:  # sched_getaffinity: one CPU
        write(a[2], struct.pack("<Q", 1))
        return 8
    if nr in (2, 257):  # open, openat: host files, read only
        path_va, flags = (a[0], a[1]) if nr == 2 else (a[1], a[2])
        if flags & 3:
            return -EACCES
        path = read_c_string(path_va)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError as e:
            return -e.errno
        files.add(fd)
        return fd
    if nr in (0, 17):  # read, pread64
        if a[0] not in files:
            return -EBADF
        try:
            blob = os.read(a[0], a[2]) if nr == 0 else os.pread(a[0], a[2], a[3])
        except OSError as e:
            return -e.errno
        write(a[1], blob)
        return len(blob)
    if nr == 8:  # lseek
        if a[0] not in files:
            return -EBADF
        try:
            return os.lseek(a[0], ctypes.c_int64(a[1]).value, a[2])
        except OSError as e:
            return -e.errno
    if nr == 5:  # fstat
        if a[0] not in files:
            return -EBADF
        st = os.fstat(a[0])
        write(a[1], struct.pack(
            "<QQQIIIIQqqq48x", st.st_dev, st.st_ino, st.st_nlink, st.st_mode, st.st_uid,
            st.st_gid, 0, st.st_rdev, st.st_size, st.st_blksize, st.st_blocks,
        ))  # fmt: skip
        return 0
    if nr == 72:  # fcntl (musl sets FD_CLOEXEC again after open)
        return 0 if a[0] in files or a[0] < 3 else -EBADF
    if nr == 3:  # close
        if a[0] in files:
            files.discard(a[0])
            os.close(a[0])
        return 0
    if nr in (4, 6, 21, 79, 89, 262, 332):  # other file calls (statx: std falls back to fstat)
        return -ENOSYS if nr == 332 else -ENOENT
    if nr == 24:  # sched_yield
        return 0
    if nr in (60, 231):  # exit, exit_group
        return ("exit", a[0] & 0xFF)
    print(f"[bochs] unanswered system call {nr} ({[hex(x) for x in a]}): ENOSYS", file=sys.stderr)
    return -ENOSYS


def main():
    args = sys.argv[1:]
    count = args[:1] == ["--count-instructions"]
    if count:
        args = args[1:]
    if not args:
        sys.exit(__doc__)
    path = args[0]
    envp = [f"{k}={v}" for k, v in os.environ.items() if k.startswith(("NOISEFIELD_", "RUST_"))]

    session = bochscpu.Session()
    session.missing_page_handler = unexpected_missing_page
    entry, sp = load(path, args, envp)
    memory = AnonymousMemory()

    state = bochscpu.State()
    bochscpu.cpu.set_long_mode(state)
    # The FPU native (CR0.MP, not EM); FXSAVE, SSE exceptions and XSAVE on
    # (CR4.OSFXSR, OSXMMEXCPT, OSXSAVE); x87, SSE, AVX and the three AVX-512
    # state components enabled in XCR0, which the crate's detection checks.
    state.cr0 = (state.cr0 | 0x2) & ~0x4
    state.cr4 |= (1 << 9) | (1 << 10) | (1 << 18)
    state.xcr0 = 0xE7
    state.efer |= 1  # SCE: `syscall` on
    state.star = 0x10 << 32
    state.lstar = SYSCALL_ENTRY
    state.sfmask = 0
    state.mxcsr = 0x1F80
    state.cr3 = PAGE_TABLES_GPA
    state.rip = entry
    state.rsp = sp
    state.rflags = 0x202
    state.cs, state.ss, state.ds, state.es, state.fs, state.gs = CODE, DATA, DATA, DATA, DATA, DATA
    session.cpu.state = state

    event = {"syscall": False, "exception": None}
    retired = [0]

    def on_far_branch(sess, cpu, kind, prev_cs, prev_rip, new_cs, new_rip):
        if new_rip == SYSCALL_ENTRY:
            event["syscall"] = True
            sess.stop()

    def on_exception(sess, cpu, vector, error_code):
        event["exception"] = (vector, error_code)
        sess.stop()

    def on_instruction(sess, cpu, instruction):
        retired[0] += 1

    hook = bochscpu.Hook()
    hook.far_branch = on_far_branch
    hook.exception = on_exception
    if count:
        hook.after_execution = on_instruction

    clock_start = time.monotonic_ns()
    started = time.time()
    calls = 0
    while True:
        session.run([hook])
        state = session.cpu.state
        if event["exception"] is not None:
            vector, error_code = event["exception"]
            print(
                f"[bochs] CPU exception {vector} (error code {error_code:#x}) at rip {state.rip:#x},"
                f" cr2 {state.cr2:#x}",
                file=sys.stderr,
            )
            sys.exit(101)
        if not event["syscall"]:
            sys.exit(f"[bochs] the CPU stopped at rip {state.rip:#x} without a system call")
        event["syscall"] = False
        calls += 1
        args6 = [state.rdi, state.rsi, state.rdx, state.r10, state.r8, state.r9]
        result = system_call(state.rax, args6, state, memory, clock_start)
        if isinstance(result, tuple):
            status = result[1]
            break
        # Back to the caller as `sysret` would: rcx holds the return address
        # and r11 the flags.
        state.rax = result & 0xFFFF_FFFF_FFFF_FFFF
        state.rip = state.rcx
        state.rflags = state.r11
        state.cs, state.ss = CODE, DATA
        session.cpu.state = state
    summary = f"[bochs] exit status {status} after {time.time() - started:.1f} s, {calls} system calls"
    if count:
        summary += f", {retired[0]} instructions retired"
    print(summary, file=sys.stderr)
    sys.stderr.flush()
    os._exit(status)  # past the bindings' teardown, which reports leaks


if __name__ == "__main__":
    main()
