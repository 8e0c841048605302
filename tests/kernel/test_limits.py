"""ds kernel under attack and under load (issue 56; docs/kernel.md, "Limits").

Raw ZMTP frames that declare huge lengths on every port, completion on expressions nested tens
of thousands deep, a cell that fills the heap, thousands of drawings, a replayed message, the
heartbeat during a slow completion, and a connection file that never ends: each must leave the
kernel answering. Each test starts a kernel of its own, as a failure may end it.

Needs the kernelspec `ds` installed where jupyter_client finds it (see test_kernel.py).
Run: python -m unittest discover -s tests/kernel -p test_limits.py -v
"""

import socket
import struct
import subprocess
import time
import unittest

import zmq
from jupyter_client.kernelspec import KernelSpecManager
from kernels import start

TIMEOUT = 60

WORLD = """edges on
var Start = GRAPH("Start")
GRAPH = Start
nodes f, w, g, c, $1, $2
[f, w, g, c] on $1;
"""

PORTS = ["shell_port", "iopub_port", "stdin_port", "control_port", "hb_port"]


def greeting():
    """ZMTP 3.0's greeting with the NULL mechanism, as a client sends it."""
    return b"\xff" + b"\x00" * 8 + b"\x7f" + b"\x03\x00" + b"NULL".ljust(20, b"\x00") + b"\x00" + b"\x00" * 31


class Kernel(unittest.TestCase):
    """A kernel of its own for each test."""

    extra = []

    def setUp(self):
        self.km, self.kc = start(extra_arguments=self.extra)

    def tearDown(self):
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)

    def reply_to(self, msg_id, timeout=TIMEOUT):
        while True:
            reply = self.kc.get_shell_msg(timeout=timeout)
            if reply["parent_header"].get("msg_id") == msg_id:
                return reply["content"]

    def run_cell(self, code, timeout=TIMEOUT):
        """The execute reply's content and the iopub messages of one cell."""
        msg_id = self.kc.execute(code)
        content = self.reply_to(msg_id, timeout)
        outputs = []
        while True:
            msg = self.kc.get_iopub_msg(timeout=timeout)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return content, outputs
            outputs.append(msg)

    def assert_answers(self):
        self.assertTrue(self.km.is_alive(), "the kernel died")
        content, outputs = self.run_cell("out 6 * 7")
        self.assertEqual(content["status"], "ok", content)
        text = "".join(m["content"]["text"] for m in outputs if m["msg_type"] == "stream")
        self.assertEqual(text, "42\n")


class Frames(Kernel):
    def test_a_frame_that_declares_a_huge_length_is_refused_on_every_port(self):
        info = self.km.get_connection_info()
        for port in PORTS:
            with socket.create_connection((info["ip"], info[port]), timeout=10) as s:
                # A long frame of 2^40 bytes, before the handshake and after a greeting.
                s.sendall(greeting() + b"\x02" + struct.pack(">Q", 1 << 40) + b"xxxx")
                s.settimeout(10)
                try:
                    while s.recv(65536):
                        pass  # the kernel's greeting, then the end: it closed the connection
                except (ConnectionResetError, socket.timeout):
                    pass
            self.assertTrue(self.km.is_alive(), f"the kernel died of a frame on its {port}")
        self.assert_answers()

    def test_a_message_of_too_many_frames_is_refused(self):
        info = self.km.get_connection_info()
        with socket.create_connection((info["ip"], info["shell_port"]), timeout=10) as s:
            s.sendall(greeting() + b"\x01\x00" * 200_000)
            time.sleep(0.5)
        self.assert_answers()


class Analysis(Kernel):
    def test_completion_and_inspection_of_a_long_expression_leave_the_kernel_up(self):
        long = "var Long = " + " + ".join(["1"] * 30_000)
        content, _ = self.run_cell(long)
        self.assertEqual(content["status"], "ok", content)
        # Tab after it: the analysis of the earlier cells includes the long one.
        reply = self.reply_to(self.kc.complete("out Lon", 7))
        self.assertIn("Long", reply["matches"])
        reply = self.reply_to(self.kc.inspect("Long", 4))
        self.assertEqual(reply["status"], "ok")
        deep = "out " + " + ".join(["1"] * 150_000)
        reply = self.reply_to(self.kc.is_complete(deep))
        self.assertEqual(reply["status"], "complete")
        reply = self.reply_to(self.kc.complete(deep, len(deep)))
        self.assertEqual(reply["status"], "ok")
        self.assert_answers()

    def test_the_heartbeat_and_control_answer_during_a_slow_completion(self):
        # A long session: completion analyses all of it, which takes a while.
        cell = "\n".join(f"var Name{i} = {i}" for i in range(60_000))
        content, _ = self.run_cell(cell, timeout=120)
        self.assertEqual(content["status"], "ok", content)
        info = self.km.get_connection_info()
        ctx = zmq.Context.instance()
        hb = ctx.socket(zmq.REQ)
        hb.linger = 0
        hb.connect(f"tcp://{info['ip']}:{info['hb_port']}")
        try:
            began = time.time()
            slow = self.kc.complete("out Name9999", 12)
            time.sleep(0.1)
            pinged = time.time()
            hb.send(b"ping")
            self.assertTrue(hb.poll(5000), "no heartbeat")
            self.assertEqual(hb.recv(), b"ping")
            heartbeat = time.time() - pinged
            asked = time.time()
            msg = self.kc.session.msg("kernel_info_request")
            self.kc.control_channel.send(msg)
            reply = self.kc.control_channel.get_msg(timeout=10)
            control = time.time() - asked
            self.assertEqual(reply["msg_type"], "kernel_info_reply")
            completion = self.reply_to(slow, 120)
            took = time.time() - began
            self.assertIn("Name9999", completion["matches"])
            # The completion took long enough for the test to mean something.
            self.assertGreater(took, 0.3, "the completion was too fast to test this")
            self.assertLess(heartbeat, 0.2, f"heartbeat {heartbeat:.2f} s (completion {took:.2f} s)")
            self.assertLess(control, 0.2, f"control {control:.2f} s (completion {took:.2f} s)")
        finally:
            hb.close()


class Output(Kernel):
    def test_drawings_count_against_the_output_cap(self):
        content, outputs = self.run_cell(WORLD + "for I in range(3000) { out Start }", timeout=120)
        self.assertEqual(content["status"], "ok", content)
        drawings = [m for m in outputs if m["msg_type"] == "display_data"]
        size = sum(len(v) for m in drawings for v in m["content"]["data"].values())
        self.assertLessEqual(size, 1 << 20)
        self.assertGreater(len(drawings), 10)
        self.assertLess(len(drawings), 3000)
        text = "".join(m["content"]["text"] for m in outputs if m["msg_type"] == "stream")
        self.assertIn("output cut after 1048576 bytes (text and drawings)", text)

    def test_a_world_is_drawn_after_reset(self):
        content, _ = self.run_cell(":reset")
        self.assertEqual(content["status"], "ok", content)
        _, outputs = self.run_cell(WORLD + "out Start")
        kinds = [m["msg_type"] for m in outputs if m["msg_type"] in ("stream", "display_data")]
        self.assertEqual(kinds, ["display_data"])

    def test_a_replayed_request_is_not_run_again(self):
        self.run_cell("var Runs = 0")
        msg = self.kc.session.msg("execute_request", {
            "code": "Runs = Runs + 1", "silent": False, "store_history": True,
            "user_expressions": {}, "allow_stdin": False, "stop_on_error": True,
        })
        frames = self.kc.session.serialize(msg)
        socket_ = self.kc.shell_channel.socket
        socket_.send_multipart(frames)
        self.reply_to(msg["header"]["msg_id"])
        socket_.send_multipart(frames)
        time.sleep(0.5)
        _, outputs = self.run_cell("Runs")
        results = [m["content"]["data"]["text/plain"] for m in outputs if m["msg_type"] == "execute_result"]
        self.assertEqual(results, ["1"])


class Streaming(Kernel):
    def test_what_a_cell_prints_shows_within_100_ms_while_it_runs(self):
        # Two lines at once (the second waits to be sent), then a second or more of counting.
        msg_id = self.kc.execute('out "one"\nout "two"\nvar I = 0\nwhile I < 30000000 { I++ }\nout "end"')
        started = None
        shown = ""
        while True:
            msg = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            now = time.time()
            if msg["msg_type"] == "execute_input":
                started = now
            if msg["msg_type"] == "stream":
                shown += msg["content"]["text"]
                if "two" in shown:
                    break
        # Seen while the cell still counts: no reply yet, and its last line not printed.
        self.assertNotIn("end", shown, "the cell ended before its first lines were seen")
        self.assertEqual(self.kc.shell_channel.msg_ready(), False, "the cell ended before its first lines were seen")
        self.assertLess(now - started, 1.0, "the first lines came late")
        content = self.reply_to(msg_id)
        self.assertEqual(content["status"], "ok", content)


class Memory(Kernel):
    extra = ["--max-memory", "200M"]

    def test_a_cell_that_fills_the_heap_is_a_script_error(self):
        content, _ = self.run_cell('var A = ["0123456789"]\nwhile True { A = A + A }')
        self.assertEqual(content["status"], "error", content)
        self.assertIn("memory limit of 209715200 bytes reached", content["evalue"])
        self.assert_answers()


class CommandLine(unittest.TestCase):
    def test_a_connection_file_that_never_ends_is_refused(self):
        ds = KernelSpecManager().get_kernel_spec("ds").argv[0]
        p = subprocess.run([ds, "kernel", "-f", "/dev/zero"], capture_output=True, text=True, timeout=20)
        self.assertEqual(p.returncode, 1)
        self.assertIn("cannot read the connection file `/dev/zero`", p.stderr)


if __name__ == "__main__":
    unittest.main()
