"""Customers (create, update at a version, erase, their own rate limit) and sales, read only (spec: Customer,
Delete rules, Sales list rules, Limits)."""

from conftest import outcome

GROUP_UNKNOWN = {"customer_group_id": "00000000-0000-4000-8000-000000000000"}


def by_code(api, code):
    return next(c for c in api.all("/customers") if c["customer_code"] == code)


def test_a_customer_is_made_read_and_updated_at_its_version(api):
    made = api.send("POST", "/customers", {"first_name": "Frank", "customer_code": "FRANK"}, key="frank").body["data"]
    assert api.get(f"/customers/{made['id']}").body["data"]["first_name"] == "Frank"
    assert api.send("PATCH", f"/customers/{made['id']}", {"city": "Portland", "version": made["version"]}).status == 200
    stale = api.send("PATCH", f"/customers/{made['id']}", {"city": "Salem", "version": made["version"]})
    assert outcome(stale) == (409, "STALE_VERSION")


def test_customer_refusals(api):
    assert outcome(api.send("POST", "/customers", {"first_name": "A", "customer_code": "ALICE"})) == (409, "CONFLICT")
    alice = by_code(api, "ALICE")
    assert outcome(api.send("PATCH", f"/customers/{alice['id']}", {"customer_code": "BOB"})) == (409, "CONFLICT")
    assert outcome(api.send("POST", "/customers", {"first_name": "A", **GROUP_UNKNOWN})) == (422, "UNPROCESSABLE")
    assert outcome(api.send("PATCH", f"/customers/{alice['id']}", GROUP_UNKNOWN)) == (422, "UNPROCESSABLE")


def test_a_delete_erases_and_leaves_a_tombstone_but_not_for_the_walk_in_customer(api, ctl, demo):
    dev = by_code(api, "DEV")
    assert outcome(api.send("DELETE", f"/customers/{dev['id']}")) == (204,)
    assert outcome(api.get(f"/customers/{dev['id']}")) == (404, "NOT_FOUND")
    tombstone = next(r for r in api.all("/customers", include_deleted=True) if r["id"] == dev["id"])
    assert sorted(tombstone) == ["deleted_at", "id", "version"]
    stored = ctl("GET", f"/stores/{demo['prefix']}/customers/{dev['id']}")
    assert (stored["first_name"], stored["email"]) == ("Erased", None)
    assert outcome(api.send("DELETE", f"/customers/{by_code(api, 'WALKIN')['id']}")) == (409, "CONFLICT")
    group = api.all("/customer-groups")[0]
    assert api.get(f"/customer-groups/{group['id']}").body["data"]["name"] == group["name"]


def test_30_customer_requests_a_minute_then_429_until_the_clock_moves(api, ctl):
    for _ in range(30):
        assert api.get("/customers", limit=1).status == 200
    assert outcome(api.get("/customers", limit=1)) == (429, "RATE_LIMITED")
    assert api.get("/products", limit=1).status == 200
    ctl.advance(60)
    assert api.get("/customers", limit=1).status == 200


def test_the_sales_list_and_its_filters(api):
    sales = api.all("/sales", limit=4)
    assert len(sales) == 9
    assert {s["status"] for s in api.all("/sales", status="refunded")} == {"refunded"}
    at = sales[1]["completed_at"]
    assert [s["id"] for s in api.all("/sales", completed_from=at, completed_to=at)] == [s["id"] for s in sales if s["completed_at"] == at]
    for query in ({"status": "open"}, {"include_deleted": True}, {"completed_from": "2026-01-01T00:00:00+01:00"}):
        assert outcome(api.get("/sales", **query)) == (400, "VALIDATION_FAILED")


def test_a_sale_made_and_refunded_through_the_control_plane(api, ctl, demo):
    outlet = api.all("/outlets")[0]["id"]
    mug = api.get("/products", sku="MUG-ENAMEL").body["data"][0]
    sale = ctl("POST", f"/stores/{demo['prefix']}/sales", {"outlet_id": outlet, "lines": [{"product_id": mug["id"], "quantity": 2, "unit_price": 1500}]})
    assert api.get(f"/sales/{sale['id']}").body["data"]["status"] == "completed"
    refund = ctl("POST", f"/stores/{demo['prefix']}/sales/{sale['id']}/refunds", {})
    assert api.get(f"/sales/{refund['id']}").body["data"]["parent_sale_id"] == sale["id"]
    assert api.get(f"/sales/{sale['id']}").body["data"]["status"] == "refunded"
