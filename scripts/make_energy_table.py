#!/usr/bin/python3
"""Derives configs/energy/default-16nm.json from published 45 nm per-access energies.

The rule and every source are in docs/energy.md. Run from the repository root:
    scripts/make_energy_table.py > configs/energy/default-16nm.json
    scripts/make_energy_table.py --markdown     # the table docs/energy.md shows
"""
import json
import sys

# Horowitz, "Computing's energy problem (and what we can do about it)", ISSCC 2014, 45 nm, 0.9 V.
H45 = {
    "add8": 0.03, "add32": 0.1, "mult8": 0.2, "mult32": 3.1,
    "fadd16": 0.4, "fmult16": 1.1, "fadd32": 0.9, "fmult32": 3.7,
    "sram8k_64b": 10.0, "sram32k_64b": 20.0, "sram1m_64b": 100.0,
    "dram_64b_low": 1300.0,  # 1.3-2.6 nJ per 64-bit access; the low end
}
NODE_FROM, NODE_TO = 45.0, 16.0
V_FROM, V_TO = 0.9, 0.8          # assumed supply voltages
LOGIC = (NODE_TO / NODE_FROM) * (V_TO / V_FROM) ** 2   # E = C V^2, C proportional to feature size
WIRE = (V_TO / V_FROM) ** 2                            # wire capacitance per mm does not shrink
WIRE_PJ_PER_BIT_MM_45 = 0.1     # assumption: full-swing repeated wire at 45 nm
BUS_MM = 1.0                    # assumption: average bus length


def r(x):
    return float(f"{x:.4g}")


def table():
    sram_law = {"reference_capacity_bytes": 32768, "capacity_exponent": 0.5}
    return {
        "name": "default-16nm",
        "node_nm": NODE_TO,
        "description": "Horowitz ISSCC 2014 45 nm energies scaled to 16 nm by C*V^2 (factor %.4f); "
                       "DRAM unscaled; areas and leakage are assumptions. Derivation: docs/energy.md, "
                       "scripts/make_energy_table.py." % LOGIC,
        "classes": {
            "mac": {"actions_pj": {"int8": r((H45["mult8"] + H45["add32"]) * LOGIC),
                                   "float16": r((H45["fmult16"] + H45["fadd16"]) * LOGIC),
                                   "float32": r((H45["fmult32"] + H45["fadd32"]) * LOGIC)},
                    "area_mm2": 4.0e-4, "leakage_mw_per_mm2": 5.0},
            "sram": dict({"actions_pj": {"read": r(H45["sram32k_64b"] / 8 * LOGIC),
                                         "write": r(H45["sram32k_64b"] / 8 * LOGIC)},
                          "area_mm2": r(1.0 / 1024), "leakage_mw_per_mm2": 2.0}, **sram_law),
            "register_file": {"actions_pj": {"read": r(H45["sram8k_64b"] / 8 * LOGIC),
                                             "write": r(H45["sram8k_64b"] / 8 * LOGIC)},
                              "reference_capacity_bytes": 8192, "capacity_exponent": 0.5,
                              "area_mm2": r(2.0 / 1024), "leakage_mw_per_mm2": 5.0},
            "bus": {"actions_pj": {"transfer": r(WIRE_PJ_PER_BIT_MM_45 * 8 * BUS_MM * WIRE)},
                    "area_mm2": 0.0, "leakage_mw_per_mm2": 0.0},
            "dram": {"actions_pj": {"read": r(H45["dram_64b_low"] / 8), "write": r(H45["dram_64b_low"] / 8)},
                     "area_mm2": 0.0, "leakage_mw_per_mm2": 0.0},
            "dma": {"actions_pj": {"transaction": r((H45["sram8k_64b"] + 4 * H45["add32"]) * LOGIC)},
                    "area_mm2": 0.02, "leakage_mw_per_mm2": 5.0},
            "vector": {"actions_pj": {"lane_op": r(H45["add32"] * LOGIC)},
                       "area_mm2": 1.0e-4, "leakage_mw_per_mm2": 5.0},
            "min_switch": {"actions_pj": {"traversal": r(H45["add8"] * LOGIC)},
                           "area_mm2": 2.0e-5, "leakage_mw_per_mm2": 5.0},
        },
    }


def markdown(t):
    rows = ["| class | action | pJ | area mm² per unit | leakage mW/mm² |", "|---|---|---|---|---|"]
    for name, c in t["classes"].items():
        for action, pj in c["actions_pj"].items():
            rows.append(f"| `{name}` | {action} | {pj:g} | {c['area_mm2']:g} | {c['leakage_mw_per_mm2']:g} |")
    return "\n".join(rows)


if __name__ == "__main__":
    t = table()
    print(markdown(t) if "--markdown" in sys.argv else json.dumps(t, indent=2))
