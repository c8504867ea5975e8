"""bench/nvcc-phases.py: the phases of one `nvcc -time` file are summed by
name, without the driver's own line."""

import importlib.util
import os

SPEC = importlib.util.spec_from_file_location(
    "nvcc_phases", os.path.join(os.path.dirname(__file__), "..", "..", "nvcc-phases.py"))
phases = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(phases)

# As nvcc 13.0 writes it (paths shortened): spaces around the commas.
TIME_CSV = """source file name , phase name , phase input files , phase output file , arch , tool, metric , unit
a.cu , gcc (preprocessing 4) , a.cu  , a.cpp4.ii ,  , nvcc , 69.4790 , ms
a.cu , cudafe++ , a.cpp4.ii  , a.cudafe1.cpp , compute_90 , nvcc , 102.0380 , ms
a.cu , gcc (preprocessing 1) , a.cu  , a.cpp1.ii , compute_90 , nvcc , 55.4090 , ms
a.cu , cicc ,  a.cpp1.ii  , a.ptx , compute_90 , nvcc , 161.1760 , ms
a.cu , ptxas , a.ptx  , a.sm_90.cubin , sm_90 , nvcc , 56.0560 , ms
a.cu , fatbinary , a.sm_90.cubin a.ptx  , a.fatbin ,  , nvcc , 4.2990 , ms
a.cu , gcc (compiling) ,   , x.o , compute_90 , nvcc , 146.1410 , ms
 , nvcc (driver) ,  , x.o ,  , nvcc , 0.6940 , ms
"""


def test_phases(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text(TIME_CSV)
    got = phases.phases(str(p))
    assert got["cicc"] == 161.176
    assert got["gcc (compiling)"] == 146.141
    assert "nvcc (driver)" not in got
    assert len(got) == 7
    assert abs(sum(got.values()) - 594.598) < 1e-9


def test_empty_file(tmp_path):
    p = tmp_path / "t.csv"
    p.write_text("")
    assert phases.phases(str(p)) == {}
