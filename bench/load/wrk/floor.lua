-- The HTTP floor (bench/load/floor.py): every request a trial save's body to the empty Flask view.
wrk.method = "POST"
wrk.path = "/trials"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"trial_id":"0b6f8a64-4a1e-4c46-9a8e-2f7a1c3d5e60","trial_index":7,"stimulus_id":"s-0007",'
  .. '"response":{"percent":42.5},"rt_ms":3456,"client_time":"2026-11-22T17:00:00.000Z"}'
