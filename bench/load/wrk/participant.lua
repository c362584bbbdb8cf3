-- One participant per wrk connection (bench/load/wrk.py runs wrk with as many threads as connections, so each Lua
-- state is one connection: wrk passes a script no connection identity). Shared by the studyhive and psiTurk flows.
--
-- A flow is a function run as a coroutine; `http(kind, method, path, body)` sends one request and returns its
-- answer (status, headers, body), resending it unchanged after a connection error, 5xx, 408 or 429 with backoff as
-- static/studyhive/sync.js does. `wait_until(t)` paces (wrk's delay()). Everything the Python side needs goes to
-- one file per thread in LOAD_OUT, written when a participant ends (and when its buffer fills):
--   L kind sent_at latency status upstream   one line per answer (monotonic seconds, as Python's time.monotonic)
--   A token index trial_id acked_at           an acknowledged save
--   R kind                                    a resent request
--   E message                                 a final failure (the participant stops, its seat stays empty)
--   P started_at / C completed_at upstream redirect
local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } sh_timespec;
int clock_gettime(int clock, sh_timespec *tp);
int nanosleep(const sh_timespec *req, sh_timespec *rem);
]]
local ts = ffi.new("sh_timespec")
local function now()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC: Python's time.monotonic() reads the same clock
  return tonumber(ts.tv_sec) + tonumber(ts.tv_nsec) * 1e-9
end
local function sleep_until(t)
  local d = t - now()
  if d > 0 then
    local req = ffi.new("sh_timespec", math.floor(d), math.floor((d % 1) * 1e9))
    ffi.C.nanosleep(req, nil)
  end
end

local M = {now = now}
local RETRY = {[408] = true, [429] = true, [500] = true, [502] = true, [503] = true, [504] = true}
local env = function(name, default) return os.getenv(name) or default end
local OUT = env("LOAD_OUT", "/tmp")
local PREFIX = env("LOAD_PREFIX", "p")
local T0 = tonumber(env("LOAD_T0", "0"))
local ARRIVAL = tonumber(env("LOAD_ARRIVAL", "0"))          -- seconds over which the connections arrive
local CONNECTIONS = tonumber(env("LOAD_CONNECTIONS", "1"))
local STOP_ENTERING = tonumber(env("LOAD_STOP_ENTERING", "0")) -- 0: one participant per connection
local DEADLINE = tonumber(env("LOAD_DEADLINE", "1e18"))       -- past it a participant gives up
M.PACING = tonumber(env("LOAD_PACING", "0"))                  -- seconds between one participant's saves

local id = 0          -- this thread's number: setup() in wrk's main state sets `thread_id` here before init()
local lines, number = {}, 0
sh_lines = lines      -- global, so done() in wrk's main state can write what a stopped run left unwritten
local flow            -- the flow function (M.run sets it)
local co              -- the current participant's coroutine
local pending         -- {kind, text} of the request to send next (or being answered)
local due = 0         -- when to send it
local awaiting = false
local sent_at = 0
local started = false -- wrk calls request() once before the run to check the script; delay() comes first after
local backoff = 0.05
local finished = false

local function emit(line)
  lines[#lines + 1] = line
  if #lines >= 500 then M.flush() end
end
function M.flush()
  if #lines == 0 then return end
  local f = assert(io.open(string.format("%s/thread-%d.tsv", OUT, id), "a"))
  f:write(table.concat(lines, "\n"), "\n")
  f:close()
  for i = #lines, 1, -1 do lines[i] = nil end
end
M.emit = emit

local function header(headers, name) -- one word: nginx names every upstream it tried ("a, b")
  return ((headers[name] or headers[name:lower()] or "-"):gsub("%s+", ""))
end
M.header = header

-- Called inside the coroutine: yields the request, resumes with the final (non-retried) answer.
function M.http(kind, method, path, body, headers)
  headers = headers or {}
  if body then headers["Content-Type"] = headers["Content-Type"] or "application/json" end
  return coroutine.yield({kind = kind, text = wrk.format(method, path, headers, body)})
end

function M.wait_until(t)
  coroutine.yield({wait = t})
end

function M.fail(message)
  emit("E " .. message:gsub("%s+", " "):sub(1, 200))
end

local function finish_thread()
  finished = true
  pending = nil
  M.flush()
  local f = io.open(string.format("%s/done-%d", OUT, id), "w")
  if f then f:close() end
end

-- Run the coroutine until it asks for a request; start the next participant when one ends.
local function advance(...)
  local args = {...}
  while true do
    if co == nil then
      if finished or (number > 0 and (STOP_ENTERING == 0 or now() >= STOP_ENTERING)) then
        return finish_thread()
      end
      number = number + 1
      local pid = string.format("%s%d%s%d", PREFIX, id, "x", number)
      co = coroutine.create(function() emit(string.format("P %.6f", now())) flow(pid) end)
      args = {}
    end
    local ok, step = coroutine.resume(co, unpack(args))
    if not ok then
      M.fail("script error: " .. tostring(step))
      co = nil
      return finish_thread()
    end
    if coroutine.status(co) == "dead" then
      co = nil
      M.flush()
      args = {}
    elseif step.wait then
      due = math.max(due, step.wait)
      args = {}
    else
      pending = step
      return
    end
  end
end

local threads = {} -- in wrk's main state: every thread, for done()
function setup(thread)
  thread:set("thread_id", #threads)
  threads[#threads + 1] = thread
end

-- After the run (wrk's main state, threads stopped): lines of participants still inside when the run was stopped.
function done(summary, latency, requests)
  for n, thread in ipairs(threads) do
    local left = thread:get("sh_lines")
    if left and #left > 0 then
      local f = assert(io.open(string.format("%s/thread-%d.tsv", OUT, n - 1), "a"))
      f:write(table.concat(left, "\n"), "\n")
      f:close()
    end
  end
end

function init(args)
  id = thread_id
  math.randomseed(id * 7919 + math.floor(now() * 1000) % 100000)
  -- wrk creates the threads one after another from its main thread, running init() before each: sleeping here
  -- makes connection `id` open at its arrival time, as a participant's browser would.
  if ARRIVAL > 0 then sleep_until(T0 + ARRIVAL * id / CONNECTIONS) end
  advance()
end

function delay()
  started = true
  if pending == nil then return 1e9 end -- finished: no more requests (the run ends around it)
  return math.max(0, math.floor((due - now()) * 1000))
end

function request()
  if pending == nil then
    return wrk.format("GET", "/api/sessions/idle") -- never expected: a finished thread has no timer due
  end
  if not started then return pending.text end      -- wrk's check of the script before the run
  if awaiting then                                  -- the connection failed before an answer: send it again
    emit("R " .. pending.kind)
  end
  awaiting = true
  sent_at = now()
  return pending.text
end

function response(status, headers, body)
  if not awaiting then return end -- an answer to a request sent twice on a reconnect: the first one counted
  awaiting = false
  local t = now()
  emit(string.format("L %s %.6f %.6f %d %s", pending.kind, sent_at, t - sent_at, status,
    header(headers, "X-Upstream")))
  if RETRY[status] and t < DEADLINE then
    emit("R " .. pending.kind)
    due = t + backoff * (0.5 + math.random())
    backoff = math.min(backoff * 2, 2.0)
    return
  end
  backoff = 0.05
  due = t
  advance(status, headers, body, t)
end

function M.run(f)
  flow = f
end

return M
