#!/usr/bin/env python3
# make-skypilot-snapshot.py — the bundled cloud-price snapshot, from SkyPilot catalog files
#
# Reads <in>/<cloud>/vms.csv (copies of github.com/skypilot-org/skypilot-catalog
# catalogs/v7/<cloud>/vms.csv, Apache-2.0) and writes <out>/<cloud>.csv plus <out>/SNAPSHOT.
# Kept: GPU rows only (an AcceleratorName and a Price or SpotPrice), one per instance type and
# region group (the region's first word: "us", "eu", "asia" … — enough for Headroom's region
# filter), the one with the cheapest on-demand price (else spot); every kept cell is the file's
# own text, columns in the catalog's names, so the app reads the snapshot with the same parser
# as the live files.  Python 3 standard library only; output is deterministic.
#
#   build-aux/make-skypilot-snapshot.py --in DIR --out data/skypilot --date YYYY-MM-DD \
#       --note "where the input came from"
import argparse
import csv
import os
import sys

COLUMNS = ["InstanceType", "AcceleratorName", "AcceleratorCount", "GpuInfo", "Price",
           "SpotPrice", "Region"]


def price(row):
    for key in ("Price", "SpotPrice"):
        try:
            value = float(row.get(key) or "")
        except ValueError:
            continue
        if value > 0:
            return value
    return None


def region_group(region):
    return region.split("-")[0].lower()


def reduce_cloud(path):
    best = {}
    order = []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if not row.get("AcceleratorName") or price(row) is None:
                continue
            key = (row["InstanceType"], region_group(row["Region"]))
            if key not in best:
                order.append(key)
                best[key] = row
            elif price(row) < price(best[key]):
                best[key] = row
    return [best[k] for k in order]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--in", dest="indir", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--date", required=True)
    ap.add_argument("--note", default="")
    args = ap.parse_args()

    os.makedirs(args.out, exist_ok=True)
    clouds = sorted(d for d in os.listdir(args.indir)
                    if os.path.isfile(os.path.join(args.indir, d, "vms.csv")))
    total = 0
    for cloud in clouds:
        rows = reduce_cloud(os.path.join(args.indir, cloud, "vms.csv"))
        with open(os.path.join(args.out, cloud + ".csv"), "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(COLUMNS)
            for row in rows:
                w.writerow([row.get(c) or "" for c in COLUMNS])
        total += len(rows)
        print(f"{cloud}: {len(rows)} offers", file=sys.stderr)
    with open(os.path.join(args.out, "SNAPSHOT"), "w", encoding="utf-8") as f:
        f.write(f"{args.date} SkyPilot catalog (github.com/skypilot-org/skypilot-catalog, "
                f"catalogs/v7, Apache-2.0)\n")
        if args.note:
            f.write(args.note.rstrip() + "\n")
    print(f"{total} offers from {len(clouds)} clouds", file=sys.stderr)


if __name__ == "__main__":
    main()
