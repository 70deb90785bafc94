#!/usr/bin/env python3
"""onterm.py COLS ANSWERS -- CMD ARGS...

Run CMD on a pseudo-terminal COLS wide; whenever it has been quiet for a
moment (waiting at a prompt), type the next line of the file ANSWERS
('-' for none). Print what the terminal showed (carriage returns removed)
and exit with CMD's exit code. Used by docs-examples.sh to record the
terminal-only behaviour of specdev (decide, wait feedback, colour).
"""
import fcntl, os, pty, select, struct, sys, termios, time

cols = int(sys.argv[1])
answers = [] if sys.argv[2] == '-' else open(sys.argv[2]).read().splitlines()
cmd = sys.argv[sys.argv.index('--') + 1:]

pid, fd = pty.fork()
if pid == 0:
    os.execvp(cmd[0], cmd)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 40, cols, 0, 0))
out = b''
last = time.time()
while True:
    r, _, _ = select.select([fd], [], [], 0.1)
    if r:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        out += data
        last = time.time()
    elif answers and time.time() - last > 0.4:
        os.write(fd, (answers.pop(0) + '\n').encode())
        last = time.time()
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode('utf-8', 'replace').replace('\r', ''))
sys.exit(os.waitstatus_to_exitcode(status))
