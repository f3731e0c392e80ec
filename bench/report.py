#!/usr/bin/python3
"""Prints the benchmark table (figure, target, measured, pass/fail) from `RESULT name value unit`
lines written by run_all.sh's steps."""
import sys

MB = 1e6 / 2**20  # 1 MB in MiB

# (label, result name, target, unit shown, comparison): targets from the issue; None = info only.
ROWS = [
    ("1. exec -> first frame, Tasks of 100k (median)", "first_frame_median_ms", 100, "ms"),
    ("2. one 200x60 frame: draw() (median)", "BM_TasksDraw_ms", 2, "ms"),
    ("   refresh() + draw() (median)", "BM_TasksRefreshDraw_ms", None, "ms"),
    ("3. filter keystroke, worst case (median)", "worst_filter_ms", 10, "ms"),
    ("   't' (all match)", "BM_FilterKeystroke.first_char_all_match_ms", 10, "ms"),
    ("   'ta' (all match)", "BM_FilterKeystroke.second_char_all_match_ms", 10, "ms"),
    ("   'tas' (all match)", "BM_FilterKeystroke.third_char_all_match_ms", 10, "ms"),
    ("   'seed=42' (1% match)", "BM_FilterKeystroke.seed=42_1pct_match_ms", 10, "ms"),
    ("   'task-09999' (10 match)", "BM_FilterKeystroke.task-09999_10_match_ms", 10, "ms"),
    ("   'zzzq' (no match)", "BM_FilterKeystroke.no_match_ms", 10, "ms"),
    ("4. RSS, Tasks of 100k open (real binary)", "tasks_view_rss_mib", 64 * MB, "MiB"),
    ("   peak RSS (VmHWM) of that process", "tasks_view_hwm_mib", 64 * MB, "MiB"),
    ("5. log pane on 1 GiB: RSS", "rss_log_open_mib", 100 * MB, "MiB"),
    ("   peak RSS (VmHWM) incl. search", "hwm_mib", 100 * MB, "MiB"),
    ("   search from top to the last match (TUI)", "tui_search_last_match_ms", 1000, "ms"),
    ("   same search on LogFile (median of 3)", "logfile_search_last_match_ms", 1000, "ms"),
    ("   indexing to the end (TUI refreshes)", "index_to_end_ms", None, "ms"),
    ("   refreshes needed (one per 1 s tick)", "refreshes_to_end", None, ""),
    ("6. idle CPU following a running task's log", "idle_follow_cpu_pct", 1, "%"),
    ("   idle CPU on the Tasks pane of 100k", "idle_tasks100k_cpu_pct", 1, "%"),
    ("   in-process open (Tui ctor + first draw)", "BM_OpenTasksView_ms", None, "ms"),
    ("   'G' + 'g' (last page and back; 5 ms each)", "BM_JumpBottomTop_ms", 10, "ms"),
    ("   'j' (one row down)", "BM_RowDown_ms", None, "ms"),
    ("7. ls pools --account A / az batch pool list", "ls_pools_vs_az_ratio", 0.1, "x"),
    ("8. az batch task list / sync --job, 20k tasks", "sync_vs_az_ratio", (">=", 25), "x"),
    ("   second sync --job after 100 changed: bytes", "sync_second_bytes_pct", 5, "%"),
    ("   changed tasks the second sync stored", "sync_second_changes_seen", (">=", 100), ""),
    ("9. full sync of 100k tasks: wall (median)", "sync100k_wall_s", 1.5, "s"),
    ("   peak RSS of that sync", "sync100k_peak_rss_mib", 64, "MiB"),
    ("10. logs -f at 1 MB/s: delay p99 (1 s beat)", "logs_follow_delay_p99_s", 1, "s"),
    ("    delay max", "logs_follow_delay_max_s", 1, "s"),
    ("    bytes fetched twice", "logs_follow_bytes_fetched_twice", 0, "B"),
    ("11. 1 GiB up to Azurite: trainyard", "storage_upload_ty_mb_s", None, "MB/s"),
    ("    az storage blob upload", "storage_upload_az_mb_s", None, "MB/s"),
    ("    peak RSS of that upload: trainyard", "storage_upload_ty_rss_mib", None, "MiB"),
    ("    peak RSS of that upload: az", "storage_upload_az_rss_mib", None, "MiB"),
    ("    1 GiB down: trainyard", "storage_download_ty_mb_s", None, "MB/s"),
    ("    az storage blob download", "storage_download_az_mb_s", None, "MB/s"),
    ("    peak RSS of that download: trainyard", "storage_download_ty_rss_mib", None, "MiB"),
    ("    peak RSS of that download: az", "storage_download_az_rss_mib", None, "MiB"),
    ("12. run --upload of 512 MiB in 8 files: first send", "upload_ty_first_s", None, "s"),
    ("    the same folder again (nothing sent)", "upload_ty_again_s", None, "s"),
    ("    az storage blob upload-batch of it", "upload_az_batch_s", None, "s"),
    ("13. fresh-clone CI=true .ci/run (RUN_CI=1)", "ci_fresh_clone_min", 35, "min"),
]


def main():
    res = {}
    for line in open(sys.argv[1]):
        parts = line.split()
        if len(parts) >= 3 and parts[0] == "RESULT":
            res[parts[1]] = float(parts[2])
    filters = [v for k, v in res.items() if k.startswith("BM_FilterKeystroke") and k.endswith("_ms")]
    if filters:
        res["worst_filter_ms"] = max(filters)
    print(f"{'figure':<48} {'target':>12} {'measured':>12}  result")
    print("-" * 84)
    failed = 0
    for label, key, target, unit in ROWS:
        if key not in res:
            print(f"{label:<48} {'':>12} {'missing':>12}  ?")
            continue
        v = res[key]
        # A target is an upper bound, or (">=", n) a lower one.
        op, bound = target if isinstance(target, tuple) else ("<=", target)
        tgt = f"{op} {bound:.4g} {unit}" if bound is not None else "(info)"
        ok = v >= bound if op == ">=" else v <= bound if bound is not None else True
        verdict = "" if bound is None else ("pass" if ok else "FAIL")
        failed += verdict == "FAIL"
        print(f"{label:<48} {tgt:>12} {v:>9.3f} {unit:<3} {verdict}")
    print("-" * 84)
    print(f"{failed} figure(s) over target" if failed else "all figures within target")


if __name__ == "__main__":
    main()
