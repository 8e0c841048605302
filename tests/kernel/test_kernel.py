"""ds kernel against the Jupyter messaging protocol.

jupyter_kernel_test's KernelTests check the protocol's messages (execute results, streams,
errors, completion, inspection, is_complete); DsKernelExtra checks what a notebook user meets:
a session that persists, worlds drawn as SVG, parse errors, an interrupted runaway loop, a
cell printing 10 MB, two cells sent at once, a restart, and a bad connection file.

Needs the kernelspec `ds` installed where jupyter_client finds it (`ds kernel --install
--prefix "$VIRTUAL_ENV"`). Run: python -m unittest discover -s tests/kernel -v
"""

import json
import os
import re
import subprocess
import tempfile
import time
import unittest

import jupyter_kernel_test
from jupyter_client.kernelspec import KernelSpecManager
from kernels import start

TIMEOUT = 30

# A world of the wolf puzzle's shape (scripts/wolf.ds): four things on the first bank.
WORLD = """edges on
var Start = GRAPH("Start")
GRAPH = Start
nodes f, w, g, c, $1, $2
[f, w, g, c] on $1;
"""


class DsKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "ds"
    language_name = "ds"
    file_extension = ".ds"

    @classmethod
    def setUpClass(cls):
        cls.km, cls.kc = start()

    code_hello_world = 'out "hello, world"'
    # A statement whose value is unused draws a warning (decision 15), on standard error.
    code_stderr = "1 + 2\nout 3"
    completion_samples = [
        {"text": "Search.bf", "matches": {"bfs"}},
        {"text": "var Alpha = 1\nvar Beta = 2\nAlp", "matches": {"Alpha"}},
    ]
    complete_code_samples = ["out 1", "def f(x) { return x + 1 }", ":help"]
    incomplete_code_samples = ["def f(x) {", "var A = [1, 2,", "while True {"]
    invalid_code_samples = ["var = )"]
    code_inspect_sample = "Search.bfs"
    code_generate_error = "out nosuchname"
    # A world printed alone with `out` is drawn (display_data), not printed as text.
    code_display_data = [
        {"code": WORLD + "out Start", "mime": "image/svg+xml"},
        {"code": "var P = SVG.create()\nP.rect(0, 0, 4, 4)\nout P.canvas(4, 4)", "mime": "image/svg+xml"},
    ]
    code_execute_result = [
        {"code": "1 + 2", "result": "3"},
        {"code": '"ab" + "cd"', "result": "abcd"},
        {"code": WORLD + "Start", "mime": "image/svg+xml"},
    ]


class DsKernelExtra(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.km, cls.kc = start()

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel()

    def run_cell(self, code, timeout=TIMEOUT):
        """The execute reply and the iopub messages of one cell (up to its idle status)."""
        msg_id = self.kc.execute(code)
        return self.collect(msg_id, timeout)

    def collect(self, msg_id, timeout=TIMEOUT):
        reply = self.shell_reply(msg_id, timeout)
        outputs = self.iopub_until_idle(msg_id, timeout)
        return reply, outputs

    def shell_reply(self, msg_id, timeout=TIMEOUT):
        while True:
            reply = self.kc.get_shell_msg(timeout=timeout)
            if reply["parent_header"].get("msg_id") == msg_id:
                return reply

    def iopub_until_idle(self, msg_id, timeout=TIMEOUT):
        outputs = []
        deadline = time.time() + timeout
        while time.time() < deadline:
            msg = self.kc.get_iopub_msg(timeout=timeout)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return outputs
            outputs.append(msg)
        self.fail("no idle status")

    @staticmethod
    def stdout(outputs):
        return "".join(
            m["content"]["text"]
            for m in outputs
            if m["msg_type"] == "stream" and m["content"]["name"] == "stdout"
        )

    @staticmethod
    def result(outputs):
        results = [m["content"]["data"] for m in outputs if m["msg_type"] == "execute_result"]
        return results[0] if results else None

    def test_cells_share_one_session(self):
        self.run_cell("var Shared = 40\ndef twice(X) { return 2 * X }")
        reply, outputs = self.run_cell("twice(Shared + 1)")
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertEqual(self.result(outputs)["text/plain"], "82")

    def test_names_of_earlier_cells_complete(self):
        self.run_cell("var Wolfish = 1\ndef wolf_moves(G) { return [] }")
        msg_id = self.kc.complete("out Wolf", 8)
        reply = self.shell_reply(msg_id)["content"]
        self.assertIn("Wolfish", reply["matches"])
        self.assertEqual((reply["cursor_start"], reply["cursor_end"]), (4, 8))
        msg_id = self.kc.inspect("wolf_moves", 10)
        reply = self.shell_reply(msg_id)["content"]
        self.assertTrue(reply["found"])
        self.assertIn("wolf_moves(G)", reply["data"]["text/plain"])

    def test_out_of_a_world_draws_it_between_the_lines_around_it(self):
        reply, outputs = self.run_cell(WORLD + 'out "before"\nout Start\nout "after", Start.size() > 0')
        self.assertEqual(reply["content"]["status"], "ok")
        kinds = [m["msg_type"] for m in outputs if m["msg_type"] in ("stream", "display_data")]
        self.assertEqual(kinds, ["stream", "display_data", "stream"])
        shown = [m["content"]["data"] for m in outputs if m["msg_type"] == "display_data"][0]
        self.assertEqual(shown["image/svg+xml"].count(">on</text>"), 4)
        # Only `out` of one value alone is drawn: the last line is text.
        self.assertEqual(self.stdout(outputs), "before\nafter True\n")

    def test_a_world_state_is_drawn(self):
        reply, outputs = self.run_cell(WORLD + "Start")
        data = self.result(outputs)
        svg = data["image/svg+xml"]
        self.assertTrue(svg.startswith("<svg"))
        # Every node is drawn, and the four `on` edges.
        for name in ["f", "w", "g", "c", "1", "2"]:
            self.assertIn(f">{name}</text>", svg)
        self.assertEqual(svg.count(">on</text>"), 4)
        # The text beside it is what `out Start` prints: f is on $1.
        self.assertIn("f {  on: [$1]   }", data["text/plain"])

    def test_an_svg_value_shows_as_an_image(self):
        _, outputs = self.run_cell('var P = SVG.create()\nP.circle(10, 10, 5)\nP')
        data = self.result(outputs)
        self.assertIn("<circle", data["image/svg+xml"])

    def test_an_explored_space_is_drawn_bounded_with_a_note(self):
        code = ('def next(N) { return [N + 1, N * 2] }\n'
                'Search.explore(1, next, {"max_states": 100, "goal": 10})')
        reply, outputs = self.run_cell(code)
        self.assertEqual(reply["content"]["status"], "ok")
        svg = self.result(outputs)["image/svg+xml"]
        self.assertIn("state space: 100 states", svg)
        self.assertIn("the first 60 states drawn", svg)
        self.assertIn("exploration stopped", svg)
        self.assertEqual(svg.count("<rect"), 60)
        # Breadth-first from 1: 2; 3, 4; 6; 5, 8; 7, 12; 10 -- so 10 is state 9.
        self.assertEqual(svg.count("(goal)"), 1)
        self.assertIn(">9 (goal)</text>", svg)

    def test_an_explored_space_is_drawn_with_its_views(self):
        # The 8-puzzle of problems.md (problem 2) from 283164705, the blank 0; a state is the
        # nine cells row by row. The start's board reads 2 8 3 / 1 6 4 / 7 _ 5.
        puzzle = (
            'def swap(S, I, J) : return S.substr(0, I) + S[J] + S.substr(I + 1, J - I - 1) + S[I] + S.substr(J + 1)\n'
            'def moves(S) {\n var B = S.indexOf("0")\n var R = []\n'
            ' if B > 2 : R.push(["up", swap(S, B - 3, B)])\n'
            ' if B < 6 : R.push(["down", swap(S, B, B + 3)])\n return R\n}\n'
            'def rows(S) : return (S.substr(0, 3) + "\\n" + S.substr(3, 3) + "\\n" + S.substr(6, 3)).replace("0", "_")\n'
            'def board(S) {\n var P = SVG.create()\n'
            ' for I in range(0, 9) : if S[I] != "0" : P.text((I % 3) * 20 + 5, (I \\ 3) * 20 + 15, S[I])\n'
            ' return P.canvas(60, 60)\n}\n'
        )
        self.run_cell(puzzle)
        _, outputs = self.run_cell('Search.explore("283164705", moves, {"view": rows, "goal": "283104765"})')
        svg = self.result(outputs)["image/svg+xml"]
        # Only up and down: 283164705 -> 283104765 (state 1, the goal) -> 203184765 (state 2).
        lines = re.findall(r">([^<>]*)</tspan>", svg)
        self.assertEqual(lines, ["283", "164", "7_5", "283", "1_4", "765", "2_3", "184", "765"])
        self.assertIn(">1 (goal)</text>", svg)
        _, outputs = self.run_cell('Search.explore("283164705", moves, {"view": board})')
        svg = self.result(outputs)["image/svg+xml"]
        first = svg[svg.index("<g transform"):svg.index("</g>")]
        self.assertEqual(re.findall(r">(\d)</text>", first), list("28316475"))
        self.assertEqual(svg.count("<g transform"), 3)

    def test_compare_shows_a_table(self):
        code = (
            "def next(N) { return N < 6 ? [N + 1, N + 2] : [] }\n"
            "Search.compare(0, next, 5, (N) => 0, [\"bfs\", \"astar\"])"
        )
        reply, outputs = self.run_cell(code)
        self.assertEqual(reply["content"]["status"], "ok")
        # One table: no text table printed, no second table as the cell's value.
        self.assertEqual(self.stdout(outputs), "")
        self.assertIsNone(self.result(outputs))
        tables = [m["content"]["data"]["text/html"] for m in outputs if m["msg_type"] == "display_data"]
        self.assertEqual(len(tables), 1)
        html = tables[0]
        heads = re.findall(r"<th>([^<]*)</th>", html)
        self.assertEqual(heads, ["algorithm", "found", "length", "cost", "expanded", "generated",
                                 "duplicates", "max frontier", "ms"])
        # From 0 by steps of 1 or 2, 5 is three steps away (2, 4, 5 or 1, 3, 5).
        rows = html.split("<tr>")[2:]
        self.assertEqual(len(rows), 2)
        for row in rows:
            cells = re.findall(r"<td>([^<]*)</td>", row)
            self.assertEqual(cells[2], "3", row)
            self.assertRegex(cells[8], r"^\d+\.\d$", row)

    def test_a_parse_error_comes_back_with_its_place_and_the_kernel_stays_up(self):
        reply, outputs = self.run_cell("var x = 1\nout (x +")
        content = reply["content"]
        self.assertEqual(content["status"], "error")
        text = "\n".join(content["traceback"])
        self.assertRegex(text, r"<repl:\d+>:2:\d+")
        self.assertIn("out (x +", text)
        errors = [m for m in outputs if m["msg_type"] == "error"]
        self.assertEqual(len(errors), 1)
        reply, outputs = self.run_cell("out 6 * 7")
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertEqual(self.stdout(outputs), "42\n")

    def test_a_cell_that_does_not_compile_says_once_it_defined_nothing_and_later_cells_name_it(self):
        reply, outputs = self.run_cell("var Board = 1\ndef moves9(S) { return nosuch }\ndef goal9(S) { return False }")
        content = reply["content"]
        self.assertEqual(content["status"], "error")
        text = "\n".join(content["traceback"])
        self.assertIn("unknown name `nosuch`", text)
        self.assertEqual(text.count("defined nothing"), 1, text)
        self.assertIn("defined nothing: `Board`, `moves9` and `goal9` are not defined", text)
        failed = content["execution_count"]
        for use, name in [("out moves9(1)", "moves9"), ("out Board + 1", "Board")]:
            reply, _ = self.run_cell(use)
            text = "\n".join(reply["content"]["traceback"])
            self.assertIn(f"`{name}` is defined in cell [{failed}], which did not compile", text)
            self.assertNotIn("defined nothing", text, "a cell that would define nothing says nothing of it")

    def test_a_runaway_loop_is_interrupted_and_the_kernel_goes_on(self):
        msg_id = self.kc.execute("var n = 0\nwhile True { n++ }")
        time.sleep(1.0)
        self.km.interrupt_kernel()
        reply, _ = self.collect(msg_id)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertIn("interrupted", " ".join(reply["content"]["traceback"]))
        # The loop counted before it stopped, and the session kept its state.
        reply, outputs = self.run_cell("n > 0")
        self.assertEqual(self.result(outputs)["text/plain"], "True")

    def test_a_search_is_interrupted_with_its_statistics_kept(self):
        code = (
            "def next(N) { return [N + 1, N * 2] }\n"
            "Search.bfs(1, next, -1)\n"
        )
        msg_id = self.kc.execute(code)
        time.sleep(1.5)
        self.km.interrupt_kernel()
        self.collect(msg_id)
        reply, outputs = self.run_cell('Search.stats()["reason"]')
        self.assertEqual(self.result(outputs)["text/plain"], "interrupted")

    def test_a_long_search_shows_its_progress_line_and_clears_it(self):
        # Triples mod 80 by a + 1, b + 7, c + a: all 512,000 reachable, two seconds or more;
        # the line shows once a search has run a second.
        code = (
            'def next(s) { return [["a", [(s[0] + 1) % 80, s[1], s[2]]], ["b", [s[0], (s[1] + 7) % 80, s[2]]], '
            '["c", [s[0], s[1], (s[2] + s[0]) % 80]]] }\n'
            "Search.bfs([0, 0, 0], next, [-1])\n"
            'out Search.stats()["states"]\n'
        )
        reply, outputs = self.run_cell(code, timeout=180)
        self.assertEqual(reply["content"]["status"], "ok")
        self.assertEqual(self.stdout(outputs), "512000\n")
        lines = [m for m in outputs if m["msg_type"] in ("display_data", "update_display_data")]
        self.assertGreaterEqual(len(lines), 2, [m["msg_type"] for m in outputs])
        self.assertEqual(lines[0]["msg_type"], "display_data")
        self.assertTrue(all(m["msg_type"] == "update_display_data" for m in lines[1:]))
        ids = {m["content"]["transient"]["display_id"] for m in lines}
        self.assertEqual(len(ids), 1, "one line, updated in place")
        shown = lines[0]["content"]["data"]["text/plain"]
        self.assertRegex(shown, r"^search: \d+ states, frontier \d+, depth \d+, \d+ states/s, [\d.]+ bytes/state")
        self.assertEqual(lines[-1]["content"]["data"]["text/plain"], "", "cleared at the end")
        self.assertLessEqual(len(lines), 60, "at most two updates a second")

    def test_ten_megabytes_of_output_are_cut_with_a_note(self):
        line = "0123456789" * 10
        code = f'var L = "{line}"\nfor I in range(0, 100000) : out L'
        reply, outputs = self.run_cell(code, timeout=120)
        self.assertEqual(reply["content"]["status"], "ok")
        shown = self.stdout(outputs)
        self.assertLess(len(shown), 2_000_000)
        self.assertGreater(len(shown), 500_000)
        self.assertIn("output cut", shown)
        # 100000 lines of 101 bytes: 10 100 000 bytes in all.
        self.assertIn(f"{10_100_000 - (1 << 20)} more bytes not shown", shown)

    def test_two_cells_sent_at_once_run_in_order(self):
        first = self.kc.execute('var Order = "a"\nout "first"')
        second = self.kc.execute('Order = Order + "b"\nout "second"')
        reply1 = self.shell_reply(first)
        reply2 = self.shell_reply(second)
        self.assertEqual(reply1["content"]["status"], "ok")
        self.assertEqual(reply2["content"]["status"], "ok")
        self.assertLess(reply1["content"]["execution_count"], reply2["content"]["execution_count"])
        _, outputs = self.run_cell("Order")
        self.assertEqual(self.result(outputs)["text/plain"], "ab")

    def test_an_error_aborts_the_cells_sent_after_it(self):
        # The first cell counts for a while, then fails at run time; the next two were sent
        # meanwhile ("run all") and are not run. A cell sent afterwards runs again.
        failing = self.kc.execute('var i = 0\nwhile i < 3000000 { i++ }\nvar K = "x"\nout 1 - K')
        queued = [self.kc.execute('var Ran = True'), self.kc.execute('out "ran"')]
        replies = {}
        while len(replies) < 3:
            reply = self.kc.get_shell_msg(timeout=TIMEOUT)
            replies[reply["parent_header"].get("msg_id")] = reply["content"]["status"]
        self.assertEqual(replies.pop(failing), "error")
        self.assertEqual(replies, {msg_id: "aborted" for msg_id in queued})
        reply, outputs = self.run_cell("out 1 + 1")
        self.assertEqual(reply["content"]["status"], "ok", reply["content"])
        self.assertEqual(self.stdout(outputs), "2\n", outputs)
        reply, _ = self.run_cell("out Ran")
        self.assertIn("unknown name `Ran`", reply["content"]["evalue"])

    def test_restart_gives_a_clean_session(self):
        km, kc = start()
        try:
            msg_id = kc.execute("var Kept = 1")
            kc.get_shell_msg(timeout=TIMEOUT)
            km.restart_kernel()
            kc.wait_for_ready(timeout=TIMEOUT)
            msg_id = kc.execute("out Kept")
            while True:
                reply = kc.get_shell_msg(timeout=TIMEOUT)
                if reply["parent_header"].get("msg_id") == msg_id:
                    break
            self.assertEqual(reply["content"]["status"], "error")
            self.assertIn("unknown name `Kept`", reply["content"]["evalue"])
        finally:
            kc.stop_channels()
            km.shutdown_kernel()


class DsKernelCommandLine(unittest.TestCase):
    def ds(self):
        return KernelSpecManager().get_kernel_spec("ds").argv[0]

    def test_a_bad_connection_file_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.json")
            with open(bad, "w") as f:
                f.write("{not json")
            missing = json.dumps({"ip": "127.0.0.1", "key": "k", "shell_port": 1})
            nohb = os.path.join(tmp, "nohb.json")
            with open(nohb, "w") as f:
                f.write(missing)
            for path, why in [(bad, "not JSON"), (nohb, "no `iopub_port`"),
                              (os.path.join(tmp, "absent.json"), "cannot read")]:
                p = subprocess.run([self.ds(), "kernel", "-f", path], capture_output=True,
                                   text=True, timeout=TIMEOUT)
                self.assertNotEqual(p.returncode, 0)
                self.assertIn(why, p.stderr)
                self.assertIn(path, p.stderr)
                self.assertNotIn("panicked", p.stderr)

    def test_the_kernelspec_runs_this_ds(self):
        spec = KernelSpecManager().get_kernel_spec("ds")
        self.assertEqual(spec.display_name, "ds (DemonScript)")
        self.assertEqual(spec.language, "ds")
        self.assertEqual(spec.argv[1:], ["kernel", "-f", "{connection_file}"])
        self.assertTrue(os.path.isabs(spec.argv[0]))
        for logo in ["logo-32x32.png", "logo-64x64.png"]:
            self.assertTrue(os.path.exists(os.path.join(spec.resource_dir, logo)))


if __name__ == "__main__":
    unittest.main()
