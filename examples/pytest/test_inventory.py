"""Stock: absolute sets, relative adjustments and batches, their refusals and idempotency (spec, Inventory rules)."""

import pytest

from conftest import outcome


@pytest.fixture
def ids(api):
    """Outlets, adjustment reasons and products of the demo store by name or SKU."""
    found = {o["name"]: o["id"] for o in api.all("/outlets")}
    found.update({r["name"]: r["id"] for r in api.get("/inventory/adjustment-reasons").body["data"]})
    found.update({p["sku"]: p["id"] for p in api.all("/products", limit=200)})
    return found


def on_hand(api, ids, sku, outlet="Main Street"):
    levels = api.get(f"/products/{ids[sku]}/inventory").body["data"]
    return next((l["on_hand"] for l in levels if l["outlet_id"] == ids[outlet]), None)


def test_a_set_and_the_same_set_again(api, ids):
    put = lambda body, key=None: api.send("PUT", f"/products/{ids['MUG-ENAMEL']}/inventory/{ids['Main Street']}", body, key)  # noqa: E731
    first = put({"on_hand": 40, "reason_id": ids["Stocktake"]}, "mug-40")
    assert (first.body["data"]["changed"], first.body["data"]["on_hand"]) == (True, 40)
    assert put({"on_hand": 40, "reason_id": ids["Stocktake"]}, "mug-40").headers.get("Idempotent-Replayed") == "true"
    assert outcome(put({"on_hand": 41}, "mug-40")) == (422, "IDEMPOTENCY_KEY_REUSED")
    again = put({"on_hand": 40}).body["data"]
    assert (again["changed"], again["delta"], on_hand(api, ids, "MUG-ENAMEL")) == (False, 0, 40)


def test_set_refusals(api, ctl, demo, ids):
    put = lambda sku, body, outlet=ids["Main Street"]: outcome(api.send("PUT", f"/products/{ids[sku]}/inventory/{outlet}", body))  # noqa: E731
    assert put("SERVICE-GIFTWRAP", {"on_hand": 1}) == (422, "NOT_STOCK_TRACKED")
    assert put("MUG-ENAMEL", {"on_hand": 1, "reason_id": ids["Stock set via API"]}) == (422, "REASON_NOT_ALLOWED")
    level = on_hand(api, ids, "MUG-ENAMEL") or 0
    assert put("MUG-ENAMEL", {"on_hand": level + 5, "reason_id": ids["Damaged"]}) == (422, "REASON_DIRECTION_MISMATCH")
    outlet = ctl("POST", f"/stores/{demo['prefix']}/outlets", {"name": "Pop-up"})
    assert put("MUG-ENAMEL", {"on_hand": 3}, outlet["id"]) == (200,)
    ctl("DELETE", f"/stores/{demo['prefix']}/outlets/{outlet['id']}")
    assert put("MUG-ENAMEL", {"on_hand": 4}, outlet["id"]) == (422, "OUTLET_DELETED")


def test_adjustments(api, ctl, demo, ids):
    adjust = lambda body, key=None: outcome(api.send("POST", "/inventory/adjustments", {"outlet_id": ids["Main Street"], **body}, key))  # noqa: E731
    before = on_hand(api, ids, "CAP-BASEBALL") or 0
    assert adjust({"sku": "CAP-BASEBALL", "reason_id": ids["Stock received"], "quantity": 5, "unit_cost": 700}, "a1") == (201,)
    assert adjust({"product_id": ids["CAP-BASEBALL"], "reason_id": ids["Damaged"], "quantity": -2}, "a2") == (201,)
    assert on_hand(api, ids, "CAP-BASEBALL") == before + 3
    assert adjust({"sku": "CAP-BASEBALL", "reason_id": ids["Damaged"], "quantity": -100000}, "a3") == (422, "INSUFFICIENT_STOCK")
    ctl("PATCH", f"/stores/{demo['prefix']}/adjustment-reasons/{ids['Theft']}", {"enabled": False})
    assert adjust({"sku": "CAP-BASEBALL", "reason_id": ids["Theft"], "quantity": -1}, "a4") == (422, "REASON_NOT_ALLOWED")
    assert adjust({"sku": "CAP-BASEBALL", "reason_id": ids["Damaged"], "quantity": -1}) == (400, "VALIDATION_FAILED")


def test_a_batch_is_all_or_nothing_and_replayed_line_by_line(api, ids):
    lines = [
        {"sku": "CAP-BASEBALL", "outlet_id": ids["Main Street"], "set": {"on_hand": 30, "reason_id": ids["Stocktake"]}},
        {"product_id": ids["SOCKS-WOOL"], "outlet_id": ids["Harbour Front"], "adjust": {"quantity": 12, "reason_id": ids["Stock received"]}},
    ]
    before = on_hand(api, ids, "CAP-BASEBALL")
    bad = api.send("POST", "/inventory/batch", {"lines": [*lines, {"sku": "NO-SUCH", "outlet_id": ids["Main Street"], "set": {"on_hand": 1}}]}, "b0")
    assert (outcome(bad), bad.body["error"]["fields"][0]["field"]) == ((422, "UNPROCESSABLE"), "lines.2.sku")
    assert on_hand(api, ids, "CAP-BASEBALL") == before
    first = api.send("POST", "/inventory/batch", {"lines": lines}, "b1")
    assert (first.status, first.body["data"][0]["on_hand"]) == (200, 30)
    retry = api.send("POST", "/inventory/batch", {"lines": lines}, "b1")
    assert [line["replayed"] for line in retry.body["data"]] == [True, True]
    assert outcome(api.send("POST", "/inventory/batch", {"lines": lines})) == (400, "VALIDATION_FAILED")
