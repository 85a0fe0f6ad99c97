# The data-safety checks (tests/data_safety.sh) as a golden case: every line must say ok.
bash tests/data_safety.sh
