import sys, threading, time, collections, traceback
SAMPLES = []
def _run(main_id, stop):
    while not stop.is_set():
        f = sys._current_frames().get(main_id)
        if f is not None:
            names = []
            while f is not None:
                names.append(f"{f.f_code.co_name}@{f.f_code.co_filename.split('site-packages/')[-1].split('/work/wt/me/')[-1]}:{f.f_lineno}")
                f = f.f_back
            SAMPLES.append((time.time(), names[::-1]))
        time.sleep(0.002)
def start():
    stop = threading.Event()
    threading.Thread(target=_run, args=(threading.main_thread().ident, stop), daemon=True).start()
    return stop
def report(t0, t1, start_time, depth_skip=("run", "_run_once", "_run", "run_until_complete", "run_forever")):
    c = collections.Counter()
    n = 0
    for t, names in SAMPLES:
        if t0 <= t - start_time <= t1:
            n += 1
            # the first frame inside textual/workbench under the event loop handler
            sel = [x for x in names if ('textual/' in x or 'workbench/' in x) and not any(s in x for s in ('message_pump.py', '_callback.py', 'app.py:3', 'worker.py'))]
            c[" > ".join(x.split('@')[0] + '@' + x.split('@')[1].rsplit(':',1)[0].split('/')[-1] for x in sel[:3])] += 1
    print(f"main-thread samples {t0:.2f}-{t1:.2f}: {n}")
    for k, v in c.most_common(25): print(f"  {v:4d} {k}")
