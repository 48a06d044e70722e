#!/usr/bin/python3
##===----------------------------------------------------------------------===##
#
# This source file is part of the photomill open source project
#
# Copyright (c) 2026 the photomill authors
# Licensed under Apache License v2.0
#
# See LICENSE for license information
#
# SPDX-License-Identifier: Apache-2.0
#
##===----------------------------------------------------------------------===##

"""A photomill worker written from protocols/PROTOCOL.md and photomill.proto alone.

It is the second implementation of PMILL that the conformance suite (../run.py) runs
against the real coordinator, next to the Swift worker. It offers the `hash` kind only
(MD5 and SHA-256 of the file's bytes, recipe `hash/1`), which every language can compute
exactly, and follows the text section by section:

* "ROUTER addressing": a routing id per socket, `WORKER_ID/N`.
* "State machines / The worker": connecting -> ready <-> working, and backoff (1 s
  doubling to 32 s, reset once a connection hears from the coordinator).
* "Heartbeating": HEARTBEAT after one interval of our own silence; the coordinator is
  dead after 3 intervals of its silence. The interval is ours, from READY.
* "Reconnection and re-sending": every RESULT and FAIL is kept until an ACK names its job
  id, and sent again, in order, after READY on every new connection.
* "Leases and deadlines": EXTEND when half of the time granted has passed, asking for
  the kind's original deadline.
* "File transfer": the path under one of our roots (checked against the JOB's size and
  mtime: `file-changed`), or the bytes in the blob frames.
* "Batches": JOBS is several JOBs; the results finished in one turn of the loop leave
  as one RESULTS (this worker sends no thumbnails, so no blob frames).
* "Shutdown": on SIGTERM, new JOBs get FAIL `shutting-down`, the jobs in hand finish,
  their results are delivered and ACKed (at most 30 s), then DISCONNECT `worker-stopping`.
* "DISCONNECT": the reason's token (the part before the first ": ") is logged each time;
  whatever it is, the worker reconnects after its backoff, and after a token that needs
  its operator (`old-protocol`, `invalid-field`, `key-not-allowed`) the backoff is the
  longest, 32 s. A token it does not know, or a reason without one, is "going away".
* "Security": CURVE with the key files of "Key files".

Options that make it misbehave on purpose, for the suite's scenarios:
* --omit-heartbeat: READY leaves heartbeat_interval_ms unset (the text's 1000 ms).
* --spoil-ready FIELD=VALUE: READY with that field set (slots=0, protocol_version=0); a
  READY refused `old-protocol` or `invalid-field` then ends the worker with status 3,
  since it would be refused for ever.
* --fail-first-of-batch N: the first entry of a JOBS of several FAILs `timeout`,
  retryable, for up to N photos; the FAIL is held until a later job's RESULT is ready and
  leaves with it in one RESULTS (the text's "SHOULD NOT hold an outcome back", broken).
Every JOB, ACK and DISCONNECT is logged, with job ids and tokens, for the suite to count.

Standard library + pyzmq + protobuf (Debian: python3-zmq, python3-protobuf). The
protobuf module is generated from protocols/photomill.proto by scripts/generate-protocol.sh.
"""

import argparse
import collections
import hashlib
import os
import queue
import random
import re
import signal
import socket
import sys
import threading
import time

import zmq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import photomill_pb2 as pb  # noqa: E402

SIGNATURE = b"PMILL1"
READY, JOB, EXTEND, RESULT, FAIL, ACK, HEARTBEAT, DISCONNECT, JOBS, RESULTS = range(1, 11)
PROTOCOL_VERSION = 3          # the minor revision of PROTOCOL.md this worker follows
LIVENESS = 3
MAX_FRAMES = 16
MAX_FRAME_BYTES = 64 * 1024 * 1024
BACKOFF_FIRST, BACKOFF_MAX = 1.0, 32.0
RECIPE = "hash/1 impl=pyworker-1"
DEFAULT_INTERVAL_MS = 1000    # "heartbeat_interval_ms ... 1000 by default"
TOKEN = re.compile(r"[a-z0-9-]{1,64}")
NEEDS_OPERATOR = {"old-protocol", "invalid-field", "key-not-allowed"}   # refused until someone acts
REFUSED_READY = {"old-protocol", "invalid-field"}
EXIT_REFUSED = 3              # --spoil-ready: the spoiled READY was refused


def log(worker_id, text):
    print(f"pyworker {worker_id}: {text}", file=sys.stderr, flush=True)


def read_key_file(path, secret):
    """The key of a key file ("Key files"): the first line that is not a comment; in a
    public key file, its first word. A secret key file must not be readable by others."""
    if secret and os.stat(path).st_mode & 0o077:
        raise SystemExit(f"{path}: a secret key must not be readable by group or others")
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if line and not line.startswith("#"):
                key = line.split()[0]
                if len(key) != 40:
                    raise SystemExit(f"{path}: not a Z85 key of 40 characters")
                return key.encode()
    raise SystemExit(f"{path}: no key")


def disconnect_token(reason):
    """DISCONNECT's reason is `TOKEN` or `TOKEN: text`; the token is the part before the
    first ": ". None when that part is no token (an older coordinator's plain text)."""
    token = reason.split(": ", 1)[0]
    return token if TOKEN.fullmatch(token) else None


def under(path, root):
    """Component-wise: /photos covers /photos/a.jpg, not /photos2/a.jpg."""
    root = root.rstrip("/") or "/"
    return path == root or path.startswith(root if root == "/" else root + "/")


class Slots:
    """The threads that compute results, off the socket's thread ("One thread per socket").
    They hand finished messages back through a queue and wake the socket's loop through an
    inproc PUSH/PULL pair (a ZeroMQ socket is used by one thread only)."""

    def __init__(self, context, count, roots, delay):
        self.jobs = queue.Queue()
        self.done = queue.Queue()
        self.roots = roots
        self.delay = delay
        self.wake_address = f"inproc://pyworker-wake-{id(self)}"
        self.wake = context.socket(zmq.PULL)
        self.wake.bind(self.wake_address)
        self.threads = []
        for _ in range(count):
            thread = threading.Thread(target=self.run, args=(context,), daemon=True)
            thread.start()
            self.threads.append(thread)

    def run(self, context):
        waker = context.socket(zmq.PUSH)
        waker.connect(self.wake_address)
        while True:
            item = self.jobs.get()
            if item is None:
                return
            job, blobs, failing = item
            frames = (fail(job, "timeout", f"{job.path}: failed on purpose (--fail-first-of-batch)", True)
                      if failing else self.process(job, blobs))
            self.done.put((job.job_id, frames, failing))
            waker.send(b"")

    def process(self, job, blobs):
        if self.delay:
            time.sleep(self.delay)
        if job.file_in_blobs:
            data = b"".join(blobs)
            if len(data) != job.file_size:
                return fail(job, "unreadable", f"{job.path}: {len(data)} bytes came, {job.file_size} announced", True)
        else:
            if not any(under(job.path, root) for root in self.roots):
                return fail(job, "unreadable", f"{job.path}: outside this worker's roots", True)
            try:
                info = os.stat(job.path)
                if info.st_size != job.file_size or info.st_mtime_ns != job.file_mtime_ns:
                    return fail(job, "file-changed",
                                f"{job.path}: changed since it was scanned (size {job.file_size} -> {info.st_size})", True)
                with open(job.path, "rb") as handle:
                    data = handle.read()
            except OSError as error:
                return fail(job, "unreadable", f"{job.path}: {error.strerror}", True)
        result = pb.Result(job_id=job.job_id, lease_token=job.lease_token)
        for kind in job.kinds:
            entry = result.results.add(kind=kind, recipe=RECIPE)
            if kind == pb.KIND_HASH:
                entry.hashes.md5 = hashlib.md5(data).hexdigest()
                entry.hashes.sha256 = hashlib.sha256(data).hexdigest()
                entry.hashes.file_size = len(data)
            else:
                # Never sent to us (READY offers hash alone); answered all the same.
                entry.failure.error_class = "unsupported-format"
                entry.failure.message = f"{job.path}: this worker computes hashes only"
                entry.failure.retryable = False
        return [SIGNATURE, bytes([RESULT]), result.SerializeToString()]


def fail(job, error_class, message, retryable):
    body = pb.Fail(job_id=job.job_id, lease_token=job.lease_token, error_class=error_class,
                   message=message[:4096], retryable=retryable)
    return [SIGNATURE, bytes([FAIL]), body.SerializeToString()]


class Worker:
    def __init__(self, args):
        self.args = args
        self.interval = args.heartbeat_interval / 1000.0
        self.failed_photos = set()    # --fail-first-of-batch
        self.held = []                # FAILs waiting for a RESULT to leave with
        self.refused = None           # --spoil-ready: the token of the DISCONNECT that refused it
        self.worker_id = args.worker_id or f"py-{socket.gethostname()}-{os.getpid()}-{random.randrange(1 << 32):08x}"
        self.context = zmq.Context()
        self.slots = Slots(self.context, args.slots, args.root, args.delay)
        self.socket = None
        self.connections = 0
        self.heard = False            # this connection has heard from the coordinator
        self.backoff = BACKOFF_FIRST
        self.reconnect_at = None
        self.last_heard = self.last_sent = 0.0
        self.in_hand = {}             # job id -> [token, kinds, deadline s, granted at, granted s]
        self.unacked = collections.OrderedDict()   # job id -> frames
        self.stopping = False
        self.drain_deadline = None
        self.malformed = 0
        self.curve = None
        if args.key:
            secret = read_key_file(args.key, secret=True)
            self.curve = (zmq.curve_public(secret), secret, read_key_file(args.server_key, secret=False))

    # Connections ------------------------------------------------------------------

    def connect(self):
        self.connections += 1
        sock = self.context.socket(zmq.DEALER)
        sock.setsockopt(zmq.ROUTING_ID, f"{self.worker_id}/{self.connections}".encode())
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.RECONNECT_IVL, 1000)
        sock.setsockopt(zmq.RECONNECT_IVL_MAX, 32000)
        sock.setsockopt(zmq.MAXMSGSIZE, MAX_FRAME_BYTES)
        if self.curve:
            public, secret, server = self.curve
            sock.setsockopt(zmq.CURVE_PUBLICKEY, public)
            sock.setsockopt(zmq.CURVE_SECRETKEY, secret)
            sock.setsockopt(zmq.CURVE_SERVERKEY, server)
        sock.connect(self.args.connect)
        self.socket = sock
        self.heard = False
        now = time.monotonic()
        self.last_heard = now
        ready = pb.Ready(worker_id=self.worker_id, host=socket.gethostname()[:255] or "localhost",
                         software_version="pyworker-1", protocol_version=PROTOCOL_VERSION,
                         slots=self.args.slots, kinds=[pb.KIND_HASH], path_roots=self.args.root)
        if not self.args.omit_heartbeat:
            ready.heartbeat_interval_ms = self.args.heartbeat_interval
        for field, value in self.args.spoil_ready:
            setattr(ready, field, value)
        log(self.worker_id, f"connection {self.connections}: READY {' '.join(str(ready).split())}")
        self.send([SIGNATURE, bytes([READY]), ready.SerializeToString()])
        self.send_results(list(self.unacked.values()))     # "in their original order"

    def close(self, why):
        log(self.worker_id, f"connection {self.connections} closed: {why}; next in {self.backoff:g} s")
        self.socket.close(linger=0)
        self.socket = None
        self.reconnect_at = time.monotonic() + self.backoff
        self.backoff = min(self.backoff * 2, BACKOFF_MAX)

    def send(self, frames):
        if self.socket is None:
            return
        try:
            self.socket.send_multipart(frames, zmq.DONTWAIT)
            self.last_sent = time.monotonic()
        except zmq.Again:
            pass      # kept in `unacked` when it matters; sent again on the next connection

    # Messages ---------------------------------------------------------------------

    def receive(self):
        frames = self.socket.recv_multipart(zmq.DONTWAIT)
        if len(frames) < 3 or len(frames) > MAX_FRAMES or frames[0] != SIGNATURE or len(frames[1]) != 1:
            self.malformed += 1
            return
        self.last_heard = time.monotonic()
        if not self.heard:
            self.heard = True
            self.backoff = BACKOFF_FIRST      # "reset once a connection reaches ready"
        command, body, blobs = frames[1][0], frames[2], frames[3:]
        if command == JOB:
            job = pb.Job()
            job.ParseFromString(body)
            self.arrived(job, blobs)
        elif command == JOBS:
            batch = pb.Jobs()
            batch.ParseFromString(body)
            for index, job in enumerate(batch.jobs):
                self.arrived(job, [], first_of_several=index == 0 and len(batch.jobs) > 1)
        elif command == ACK:
            ack = pb.Ack()
            ack.ParseFromString(body)
            log(self.worker_id, f"connection {self.connections}: ACK committed={','.join(ack.committed)} "
                f"discarded={','.join(ack.discarded)}")
            for job_id in list(ack.committed) + list(ack.discarded):
                self.unacked.pop(job_id, None)
        elif command == DISCONNECT:
            message = pb.Disconnect()
            message.ParseFromString(body)
            token = disconnect_token(message.reason)
            log(self.worker_id, f"connection {self.connections}: DISCONNECT token={token or '(none)'} "
                f"text={message.reason!r}")
            if token in NEEDS_OPERATOR:
                self.backoff = BACKOFF_MAX
            self.close(f"the coordinator said DISCONNECT ({message.reason})")
            if self.args.spoil_ready and token in REFUSED_READY:
                self.refused = token
        elif command == HEARTBEAT:
            pass
        else:
            self.malformed += 1

    def arrived(self, job, blobs, first_of_several=False):
        if self.stopping:
            self.send(fail(job, "shutting-down", f"{job.path}: the worker is stopping", True))
            return
        deadline = max((d.deadline_ms for d in job.deadlines), default=60000) / 1000.0
        self.in_hand[job.job_id] = [job.lease_token, list(job.kinds), deadline, time.monotonic(), deadline]
        failing = (first_of_several and len(self.failed_photos) < self.args.fail_first_of_batch
                   and job.photo_id not in self.failed_photos)
        if failing:
            self.failed_photos.add(job.photo_id)
        log(self.worker_id, f"connection {self.connections}: JOB id={job.job_id} token={job.lease_token} "
            f"photo={job.photo_id}{' (to fail)' if failing else ''}")
        self.slots.jobs.put((job, blobs, failing))

    def finished_jobs(self):
        ready = []
        while True:
            try:
                job_id, frames, failing = self.slots.done.get_nowait()
            except queue.Empty:
                break
            self.in_hand.pop(job_id, None)
            if failing:
                self.held.append((job_id, frames))
                continue
            if self.held:
                # --fail-first-of-batch: the FAILs made first leave with this later RESULT.
                log(self.worker_id, f"connection {self.connections}: held FAILs {','.join(i for i, _ in self.held)} "
                    f"go with RESULT {job_id}")
                ready += self.held
                self.held = []
            ready.append((job_id, frames))
        if self.held and not self.in_hand:
            # No job in hand could bring a RESULT, and the held FAILs keep their credits.
            log(self.worker_id, f"connection {self.connections}: held FAILs {','.join(i for i, _ in self.held)} go alone")
            ready += self.held
            self.held = []
        for job_id, frames in ready:
            self.unacked[job_id] = frames
        self.send_results([frames for _, frames in ready])

    def send_results(self, messages):
        """One RESULT or FAIL as it is; several as one RESULTS (at most 4096, far under
        the body limit for hash results)."""
        for start in range(0, len(messages), 4096):
            group = messages[start:start + 4096]
            if len(group) == 1:
                self.send(group[0])
                continue
            batch = pb.Results()
            for frames in group:
                (batch.results if frames[1][0] == RESULT else batch.fails).add().ParseFromString(frames[2])
            self.send([SIGNATURE, bytes([RESULTS]), batch.SerializeToString()])

    def timers(self):
        now = time.monotonic()
        if self.socket is None:
            if self.reconnect_at is not None and now >= self.reconnect_at and not self.draining_done():
                self.connect()
            return
        if now - self.last_heard > LIVENESS * self.interval:
            self.close(f"the coordinator is silent ({now - self.last_heard:.1f} s)")
            return
        if self.heard:
            for job_id, entry in self.in_hand.items():
                token, kinds, deadline, granted_at, granted = entry
                if now - granted_at >= granted / 2:
                    extend = pb.Extend(job_id=job_id, lease_token=token, kinds=kinds, extra_ms=int(deadline * 1000))
                    self.send([SIGNATURE, bytes([EXTEND]), extend.SerializeToString()])
                    entry[3], entry[4] = now, deadline
            if now - self.last_sent >= self.interval:
                self.send([SIGNATURE, bytes([HEARTBEAT]), b""])

    def draining_done(self):
        return self.stopping and not self.in_hand and (not self.unacked or time.monotonic() > self.drain_deadline)

    # The loop ---------------------------------------------------------------------

    def stop(self, *_):
        if not self.stopping:
            self.stopping = True
            self.drain_deadline = time.monotonic() + 30

    def run(self):
        signal.signal(signal.SIGTERM, self.stop)
        signal.signal(signal.SIGINT, self.stop)
        # A parent may have blocked them (the mask is inherited across exec).
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
        self.connect()
        while not self.draining_done() and self.refused is None:
            poller = zmq.Poller()
            poller.register(self.slots.wake, zmq.POLLIN)
            if self.socket is not None:
                poller.register(self.socket, zmq.POLLIN)
            timeout = min(100, self.interval * 1000 / 4)
            for ready, _ in poller.poll(timeout):
                if ready is self.slots.wake:
                    while True:
                        try:
                            self.slots.wake.recv(zmq.DONTWAIT)
                        except zmq.Again:
                            break
                    self.finished_jobs()
                elif self.socket is not None and ready is self.socket:
                    while self.socket is not None:
                        try:
                            self.receive()
                        except zmq.Again:
                            break
            self.finished_jobs()
            self.timers()
        if self.socket is not None:
            self.send([SIGNATURE, bytes([DISCONNECT]), pb.Disconnect(reason="worker-stopping").SerializeToString()])
            time.sleep(0.1)       # let libzmq write it before the socket closes
            self.socket.close(linger=0)
        for _ in self.slots.threads:
            self.slots.jobs.put(None)
        log(self.worker_id, f"stopped: connections={self.connections} malformed={self.malformed} unacked={len(self.unacked)}")
        if self.refused:
            log(self.worker_id, f"the coordinator refused this worker's READY ({self.refused}): exit {EXIT_REFUSED}")
            return EXIT_REFUSED
        return 0


def spoiled(parser, item):
    """FIELD=VALUE of --spoil-ready: a scalar field of Ready and a value of its type."""
    field, _, text = item.partition("=")
    descriptor = pb.Ready.DESCRIPTOR.fields_by_name.get(field)
    if descriptor is None or descriptor.label == descriptor.LABEL_REPEATED:
        parser.error(f"--spoil-ready {item}: {field!r} is not a scalar field of Ready")
    if descriptor.type == descriptor.TYPE_STRING:
        return field, text
    try:
        return field, int(text)
    except ValueError:
        parser.error(f"--spoil-ready {item}: {field} takes a number")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connect", required=True, help="the coordinator's endpoint, tcp://HOST:PORT")
    parser.add_argument("--slots", type=int, default=2)
    parser.add_argument("--root", action="append", default=[], help="a folder whose files this worker reads itself")
    parser.add_argument("--heartbeat-interval", type=int, default=DEFAULT_INTERVAL_MS, help="milliseconds, 100-60000")
    parser.add_argument("--omit-heartbeat", action="store_true",
                        help="READY leaves heartbeat_interval_ms unset; the worker uses the text's default, 1000 ms")
    parser.add_argument("--spoil-ready", action="append", default=[], metavar="FIELD=VALUE",
                        help="send READY with this scalar field set (slots=0, protocol_version=0, ...)")
    parser.add_argument("--fail-first-of-batch", type=int, default=0, metavar="N",
                        help="the first entry of a JOBS of several FAILs `timeout` (retryable), for up to N "
                             "photos, once each; the FAIL is held until a later job's RESULT is ready and sent "
                             "with it in one RESULTS (against the text's SHOULD NOT hold back)")
    parser.add_argument("--key", help="this worker's secret key file (NAME.key)")
    parser.add_argument("--server-key", help="the coordinator's public key file (NAME.pub)")
    parser.add_argument("--worker-id")
    parser.add_argument("--delay", type=float, default=0, help="seconds each job takes at least (a slow worker)")
    args = parser.parse_args()
    if not 100 <= args.heartbeat_interval <= 60000:
        parser.error("--heartbeat-interval must be between 100 and 60000")
    if args.omit_heartbeat and args.heartbeat_interval != DEFAULT_INTERVAL_MS:
        parser.error("--omit-heartbeat uses the default interval; leave --heartbeat-interval out")
    args.spoil_ready = [spoiled(parser, item) for item in args.spoil_ready]
    if bool(args.key) != bool(args.server_key):
        parser.error("CURVE needs both --key and --server-key")
    args.root = [os.path.abspath(root) for root in args.root]
    return Worker(args).run()


if __name__ == "__main__":
    sys.exit(main())
