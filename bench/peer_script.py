"""The batch script of bench/peer-script.ts as users write it: in Python, over requests, one call
after another as the official SDK makes them (list reads of 1,000 a page, targeting criteria by
200 line item ids, batch_save in chunks of the documented maximum: 40 campaigns or line items,
500 targeting criteria; one promoted-posts POST per line item; a sleep until the limit's reset
after a 429). The SDK's requests without the SDK: its own objects, and the import of
requests_oauthlib, are left out, so this is faster than the script it stands for. YAML is read
with PyYAML's C loader.

python3 peer_script.py check|apply MANIFEST, with the endpoint in the manifest and the
credentials in ADSCTL_CONSUMER_KEY, ADSCTL_CONSUMER_SECRET, ADSCTL_ACCESS_TOKEN and
ADSCTL_ACCESS_TOKEN_SECRET; prints one line of counts. `check` exits 2 when something differs.
"""
import base64
import hashlib
import hmac
import json
import os
import resource
import secrets
import sys
import time
from urllib.parse import quote

import requests
import yaml

CONSUMER_KEY = os.environ["ADSCTL_CONSUMER_KEY"]
CONSUMER_SECRET = os.environ["ADSCTL_CONSUMER_SECRET"]
TOKEN = os.environ["ADSCTL_ACCESS_TOKEN"]
TOKEN_SECRET = os.environ["ADSCTL_ACCESS_TOKEN_SECRET"]
counts = {"reads": 0, "writes": 0, "throttled": 0}
session = requests.Session()


def encode(value):
    return quote(str(value), safe="-._~")


def authorization(method, url, pairs):
    oauth = [
        ("oauth_consumer_key", CONSUMER_KEY),
        ("oauth_nonce", secrets.token_hex(16)),
        ("oauth_signature_method", "HMAC-SHA1"),
        ("oauth_timestamp", str(int(time.time()))),
        ("oauth_token", TOKEN),
        ("oauth_version", "1.0"),
    ]
    params = sorted((encode(k), encode(v)) for k, v in pairs + oauth)
    base = "&".join([method, encode(url), encode("&".join(f"{k}={v}" for k, v in params))])
    key = f"{encode(CONSUMER_SECRET)}&{encode(TOKEN_SECRET)}".encode()
    signature = base64.b64encode(hmac.new(key, base.encode(), hashlib.sha1).digest()).decode()
    return "OAuth " + ", ".join(f'{encode(k)}="{encode(v)}"' for k, v in oauth + [("oauth_signature", signature)])


def call(method, url, params=None, body=None):
    pairs = list((params or {}).items())
    while True:
        query = "&".join(f"{encode(k)}={encode(v)}" for k, v in pairs)
        headers = {"authorization": authorization(method, url, pairs)}
        data = None
        if body is not None:
            headers["content-type"] = "application/json"
            data = json.dumps(body)
        res = session.request(method, url + ("?" + query if query else ""), headers=headers, data=data)
        counts["reads" if method == "GET" else "writes"] += 1
        if res.status_code == 429:
            counts["throttled"] += 1
            reset = int(res.headers.get("x-rate-limit-reset", "0"))
            time.sleep(max(1.0, reset - time.time()))
            continue
        if res.status_code >= 300:
            raise RuntimeError(f"{method} {url}: {res.status_code} {res.text[:500]}")
        return res.json()


def list_all(url, params=None):
    rows, cursor = [], None
    while True:
        page = call("GET", url, {**(params or {}), "count": "1000", **({"cursor": cursor} if cursor else {})})
        rows.extend(page["data"])
        cursor = page.get("next_cursor")
        if not cursor:
            return rows


def chunks(items, size):
    return [items[i : i + size] for i in range(0, len(items), size)]


def micros(amount):
    return round(float(amount) * 1_000_000)


def iso(value):
    return value.strftime("%Y-%m-%dT%H:%M:%SZ") if hasattr(value, "strftime") else value


def main():
    mode, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        manifest = yaml.load(f, Loader=yaml.CSafeLoader)
    account_id = manifest["account"]["id"]
    base = manifest["endpoint"].rstrip("/") + "/ads-api/12"
    account_url = f"{base}/accounts/{account_id}"
    batch_url = lambda collection: f"{base}/batch/accounts/{account_id}/{collection}"

    if call("GET", account_url)["data"]["id"] != account_id:
        raise RuntimeError(f"account {account_id} not found")
    campaigns = list_all(f"{account_url}/campaigns")
    line_items = list_all(f"{account_url}/line_items")
    criteria = [c for ids in chunks([l["id"] for l in line_items], 200) for c in list_all(f"{account_url}/targeting_criteria", {"line_item_ids": ",".join(ids)})]
    posts = list_all(f"{account_url}/promoted_tweets")

    campaign_by_name = {c["name"]: c for c in campaigns}
    items_of, criteria_of, posts_of = {}, {}, {}
    for l in line_items:
        items_of.setdefault(l["campaign_id"], {})[l["name"]] = l
    for c in criteria:
        criteria_of.setdefault(c["line_item_id"], {})[f"{c['targeting_type']}:{c['targeting_value']}"] = c
    for p in posts:
        posts_of.setdefault(p["line_item_id"], {})[p["tweet_id"]] = p

    campaign_ops, item_ops, criterion_ops, post_creates, post_deletes, new_items = [], [], [], [], [], []
    for spec in (manifest.get("campaigns") or {}).values():
        live = campaign_by_name.get(spec["name"])
        if live is None:
            params = {
                "name": spec["name"],
                "funding_instrument_id": manifest["funding_instruments"][spec["funding_instrument"]]["id"],
                "daily_budget_amount_local_micro": micros(spec["daily_budget"]),
                "entity_status": spec["entity_status"],
            }
            campaign_ops.append({"operation_type": "Create", "params": params})
            new_items += [(spec["name"], li) for li in (spec.get("line_items") or {}).values()]
            continue
        changed = {}
        if live["daily_budget_amount_local_micro"] != micros(spec["daily_budget"]):
            changed["daily_budget_amount_local_micro"] = micros(spec["daily_budget"])
        if live["entity_status"] != spec["entity_status"]:
            changed["entity_status"] = spec["entity_status"]
        if changed:
            campaign_ops.append({"operation_type": "Update", "params": {"campaign_id": live["id"], **changed}})
        for li in (spec.get("line_items") or {}).values():
            existing = items_of.get(live["id"], {}).get(li["name"])
            if existing is None:
                new_items.append((spec["name"], li))
                continue
            changed = {}
            if existing["bid_amount_local_micro"] != micros(li["bid_amount"]):
                changed["bid_amount_local_micro"] = micros(li["bid_amount"])
            if existing["entity_status"] != li["entity_status"]:
                changed["entity_status"] = li["entity_status"]
            if changed:
                item_ops.append({"operation_type": "Update", "params": {"line_item_id": existing["id"], **changed}})
            have = criteria_of.get(existing["id"], {})
            want = {f"{c['targeting_type']}:{c['targeting_value']}": c for c in li.get("targeting") or []}
            criterion_ops += [{"operation_type": "Delete", "params": {"targeting_criterion_id": c["id"]}} for k, c in have.items() if k not in want]
            criterion_ops += [{"operation_type": "Create", "params": {"line_item_id": existing["id"], **c}} for k, c in want.items() if k not in have]
            promoted = posts_of.get(existing["id"], {})
            tweets = li.get("promoted_posts") or []
            post_deletes += [p["id"] for t, p in promoted.items() if t not in tweets]
            missing = [t for t in tweets if t not in promoted]
            if missing:
                post_creates.append((existing["id"], missing))

    differences = len(campaign_ops) + len(item_ops) + len(new_items) + len(criterion_ops) + len(post_creates) + len(post_deletes)
    if mode == "apply" and differences > 0:
        for ops in chunks(campaign_ops, 40):
            for c in call("POST", batch_url("campaigns"), body=ops)["data"]:
                campaign_by_name[c["name"]] = c
        for name, li in new_items:
            params = {
                "campaign_id": campaign_by_name[name]["id"],
                "name": li["name"],
                "product_type": li["product_type"],
                "objective": li["objective"],
                "placements": ",".join(li["placements"]),
                "bid_strategy": li["bid_strategy"],
                "bid_amount_local_micro": micros(li["bid_amount"]),
                "entity_status": li["entity_status"],
                "start_time": iso(li["start_time"]),
            }
            item_ops.append({"operation_type": "Create", "params": params})
        created = {}
        for ops in chunks(item_ops, 40):
            for l in call("POST", batch_url("line_items"), body=ops)["data"]:
                created[(l["campaign_id"], l["name"])] = l
        for name, li in new_items:
            item_id = created[(campaign_by_name[name]["id"], li["name"])]["id"]
            criterion_ops += [{"operation_type": "Create", "params": {"line_item_id": item_id, **c}} for c in li.get("targeting") or []]
            if li.get("promoted_posts"):
                post_creates.append((item_id, li["promoted_posts"]))
        for ops in chunks(criterion_ops, 500):
            call("POST", batch_url("targeting_criteria"), body=ops)
        for item_id, tweets in post_creates:
            for ids in chunks(tweets, 50):
                call("POST", f"{account_url}/promoted_tweets", {"line_item_id": item_id, "tweet_ids": ",".join(ids)})
        for post_id in post_deletes:
            call("DELETE", f"{account_url}/promoted_tweets/{post_id}")

    print(f"{differences} differences; {counts['reads']} reads, {counts['writes']} writes, {counts['throttled']} throttled")
    figures = os.environ.get("BENCH_FIGURES_FILE")
    if figures:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        with open(figures, "w") as f:
            json.dump({"code": 2 if mode == "check" and differences else 0, "wallSeconds": 0, "cpuSeconds": usage.ru_utime + usage.ru_stime, "peakRssMb": usage.ru_maxrss / 1024}, f)
    return 2 if mode == "check" and differences else 0


if __name__ == "__main__":
    sys.exit(main())
