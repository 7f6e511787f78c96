#!/usr/bin/env python3
"""An SDK test suite run by parallel worker processes against ONE retail-sim, each in a sandbox of its own.

Standard library only. Start a simulator (for example `npx retail-sim serve --port 4747`), then:

    python3 examples/python/test_parallel.py --url http://127.0.0.1:4747/_sim

(--url also takes the simulator's api_root, http://127.0.0.1:4747, as `$RETAIL_SIM_URL` holds it.)

Each of the --workers processes (default 4) creates its own sandbox through the control plane
(POST {url}/sandboxes, on a manual clock), runs the test case below --rounds times in it (each test resets
the sandbox first), and deletes it at the end. Its stores, keys, clock, rate-limit windows, idempotency
records and faults are its own, so the workers never see each other's state. The script prints a summary and
exits 0 only if every test passed.
"""

import argparse
import io
import json
import sys
import unittest
import urllib.error
import urllib.request
from concurrent.futures import ProcessPoolExecutor


def request(method, url, body=None, token=None, headers=None):
    """One HTTP request; returns (status, headers, parsed JSON body or None). Error statuses are answers too."""
    data = None if body is None else json.dumps(body).encode()
    all_headers = dict(headers or {})
    if body is not None:
        all_headers["Content-Type"] = "application/json"
    if token is not None:
        all_headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=data, method=method, headers=all_headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as res:
            status, answer_headers, raw = res.status, res.headers, res.read()
    except urllib.error.HTTPError as error:
        status, answer_headers, raw = error.code, error.headers, error.read()
    return status, answer_headers, (json.loads(raw) if raw else None)


class SandboxTest(unittest.TestCase):
    """What an SDK's tests do, against the sandbox the worker made (set on the class before the run)."""

    sandbox = None  # the POST /_sim/sandboxes answer
    worker = 0

    @classmethod
    def setUpClass(cls):
        store = cls.sandbox["stores"][0]
        cls.control = cls.sandbox["control_url"]
        cls.prefix = store["prefix"]
        cls.base = store["base_url"]
        cls.key = next(k["token"] for k in store["keys"] if k["name"] == "full")

    def setUp(self):
        # Each test starts from the fixture's state and the clock's start: a reset of this worker's sandbox
        # touches no other worker's.
        status, _, _ = self.ctl("POST", "/reset", {})
        self.assertEqual(status, 200)

    def api(self, method, path, body=None, headers=None):
        return request(method, self.base + path, body, self.key, headers)

    def ctl(self, method, path, body=None):
        return request(method, self.control + path, body)

    def test_list_products(self):
        status, _, page = self.api("GET", "/products?limit=10")
        self.assertEqual(status, 200)
        self.assertEqual((len(page["data"]), page["has_more"]), (10, True))
        status, _, rest = self.api("GET", "/products?limit=10&cursor=" + page["next_cursor"])
        self.assertEqual((status, len(rest["data"]), rest["has_more"]), (200, 5, False))

    def test_idempotent_brand(self):
        key = {"Idempotency-Key": f"brand-{self.worker}"}
        status, headers, first = self.api("POST", "/brands", {"name": "Fjord"}, key)
        self.assertEqual((status, headers.get("Idempotent-Replayed")), (201, None))
        status, headers, again = self.api("POST", "/brands", {"name": "Fjord"}, key)
        self.assertEqual((status, headers.get("Idempotent-Replayed")), (201, "true"))
        self.assertEqual(again["data"]["id"], first["data"]["id"])
        _, _, brands = self.api("GET", "/brands?limit=200")
        self.assertEqual([b["name"] for b in brands["data"]], ["Northwind", "Acme", "Harbour & Co", "Fjord"])

    def test_clock(self):
        status, _, clock = self.ctl("GET", "/clock")
        self.assertEqual((status, clock["now"]), (200, "2026-01-01T00:00:00.000Z"))
        status, _, moved = self.ctl("POST", "/clock", {"advance_seconds": 86400})
        self.assertEqual((status, moved["now"]), (200, "2026-01-02T00:00:00.000Z"))
        status, _, product = self.api("POST", "/products", {"name": "Mug", "retail_price": 1200})
        self.assertEqual((status, product["data"]["created_at"]), (201, "2026-01-02T00:00:00.000Z"))

    def test_paused_store(self):
        status, _, _ = self.ctl("PATCH", f"/stores/{self.prefix}", {"status": "paused"})
        self.assertEqual(status, 200)
        status, _, refused = self.api("GET", "/me")
        self.assertEqual((status, refused["error"]["code"]), (402, "RETAILER_PAUSED"))
        self.ctl("PATCH", f"/stores/{self.prefix}", {"status": "active"})
        status, _, me = self.api("GET", "/me")
        self.assertEqual((status, me["data"]["domain_prefix"]), (200, self.prefix))

    def test_fault(self):
        path = f"/{self.prefix}/v1/tags"
        status, _, _ = self.ctl("POST", "/faults", {"path": path, "status": 503, "times": 1})
        self.assertEqual(status, 201)
        status, _, failed = self.api("GET", "/tags")
        self.assertEqual((status, failed["error"]["code"]), (503, "INTERNAL"))
        status, _, _ = self.api("GET", "/tags")
        self.assertEqual(status, 200)


def run_worker(url, worker, rounds):
    """One worker process: its own sandbox, the test case `rounds` times, then a delete."""
    status, _, sandbox = request("POST", f"{url}/sandboxes", {"clock": "manual"})
    if status != 201:
        return worker, 0, [f"worker {worker}: POST {url}/sandboxes answered {status}: {sandbox}"]
    SandboxTest.sandbox, SandboxTest.worker = sandbox, worker
    runs, problems = 0, []
    for round_number in range(1, rounds + 1):
        suite = unittest.defaultTestLoader.loadTestsFromTestCase(SandboxTest)
        result = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(suite)
        runs += result.testsRun
        for test, trace in result.failures + result.errors:
            problems.append(f"worker {worker}, round {round_number}, {test.id()}:\n{trace}")
    status, _, _ = request("DELETE", sandbox["control_url"])
    if status != 204:
        problems.append(f"worker {worker}: DELETE its sandbox answered {status}")
    return worker, runs, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--url",
        required=True,
        help="the simulator's control root, http://127.0.0.1:4747/_sim (or its api_root, http://127.0.0.1:4747)",
    )
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    url = args.url.rstrip("/")
    if not url.endswith("/_sim"):
        url += "/_sim"
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [pool.submit(run_worker, url, w, args.rounds) for w in range(1, args.workers + 1)]
        results = [future.result() for future in futures]
    runs = sum(r[1] for r in results)
    problems = [p for r in results for p in r[2]]
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{args.workers} workers, {runs} test runs, {len(problems)} failures")
    return 0 if not problems and runs == args.workers * args.rounds * 5 else 1


if __name__ == "__main__":
    sys.exit(main())
