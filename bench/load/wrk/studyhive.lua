-- `make bench-load`'s participant for wrk: what the study page does (static/studyhive/), as bench/load/client.py
-- does in Python. Entry by the Prolific link, the page, the session state, screen size, consent and demographics,
-- the plan's 30 trial saves one by one (a new trial_id each, resent unchanged on retry), completion. LOAD_EVENTS=N
-- sends N interaction records with each save (docs/participant-api.md, "Interaction records"), as a participant's
-- page does: number edits, a tab switch, blur and focus, a resize (20 ≈ 1.1 KB of JSON).
package.path = (os.getenv("LOAD_LUA_DIR") or "bench/load/wrk") .. "/?.lua;" .. package.path
local P = require("participant")
local STUDY = os.getenv("LOAD_STUDY") or "study3"

local ENVIRONMENT = '{"screen_width":1920,"screen_height":1080,"window_width":1536,"window_height":864}'
local CONSENT = '{"answers":{"agreed":true}}'
local DEMOGRAPHICS = '{"answers":{"gender":"female","age":34,"education":"master\'s degree","nationality":"Chilean"}}'

-- What a ratio-estimation trial's page records, in a realistic mix; cycled to LOAD_EVENTS entries.
local EVENT_MIX = {
  '"type":"resize","target":null,"value":"1536x864"',
  '"type":"input","target":"percent","value":"4"',
  '"type":"input","target":"percent","value":"42"',
  '"type":"blur","target":null,"value":null',
  '"type":"hidden","target":null,"value":null',
  '"type":"visible","target":null,"value":null',
  '"type":"focus","target":null,"value":null',
  '"type":"input","target":"percent","value":"42.5"',
}

local function events_json(n)
  if n == 0 then return "" end
  local events = {}
  for i = 1, n do events[i] = string.format('{"t":%d,%s}', 250 * i, EVENT_MIX[(i - 1) % #EVENT_MIX + 1]) end
  return ',"events":[' .. table.concat(events, ",") .. "]"
end
local EVENTS = events_json(tonumber(os.getenv("LOAD_EVENTS") or "0"))

local function uuid4()
  local r = math.random
  return string.format("%08x-%04x-4%03x-%04x-%06x%06x", r(0, 0x7fffffff), r(0, 0xffff), r(0, 0xfff),
    0x8000 + r(0, 0x3fff), r(0, 0xffffff), r(0, 0xffffff))
end

-- The plan's (index, stimulus_id) pairs from the state's JSON: each item is one balanced {…} of the "plan" array.
local function plan_of(body)
  local plan = {}
  local array = body:match('"plan"%s*:%s*(%b[])')
  for item in (array or ""):gmatch("%b{}") do
    local index = tonumber(item:match('"index"%s*:%s*(%d+)'))
    local stimulus = item:match('"stimulus_id"%s*:%s*"([^"]+)"')
    if index and stimulus then plan[#plan + 1] = {index = index, stimulus = stimulus} end
  end
  return plan
end

P.run(function(pid)
  local status, headers, body = P.http("entry", "GET",
    string.format("/study/%s?PROLIFIC_PID=%s&STUDY_ID=load&SESSION_ID=s%s", STUDY, pid, pid))
  if status ~= 303 then return P.fail("entry " .. status) end
  local page = P.header(headers, "Location"):gsub("^https?://[^/]+", "")
  local token = page:match("/s/([%w_-]+)$")
  if not token then return P.fail("entry redirected to " .. page) end
  local api = "/api/sessions/" .. token
  status = P.http("page", "GET", page)
  if status ~= 200 then return P.fail("page " .. status) end
  status, headers, body = P.http("state", "GET", api)
  local plan = status == 200 and plan_of(body) or {}
  if #plan == 0 then return P.fail("state " .. status) end
  status = P.http("environment", "PUT", api .. "/environment", ENVIRONMENT)
  if status ~= 200 then return P.fail("environment " .. status) end
  for _, survey in ipairs({{"consent", CONSENT}, {"demographics", DEMOGRAPHICS}}) do
    status, headers, body = P.http("survey", "PUT", api .. "/surveys/" .. survey[1], survey[2])
    if status ~= 200 then return P.fail("survey " .. survey[1] .. " " .. status .. " " .. body) end
  end
  local first
  for k, item in ipairs(plan) do
    if P.PACING > 0 then -- constant pacing: the k-th save k × pacing after the first, at once when behind
      first = first or P.now()
      P.wait_until(first + (k - 1) * P.PACING)
    end
    local trial_id = uuid4()
    local trial = string.format('{"trial_id":"%s","trial_index":%d,"stimulus_id":"%s","response":{"percent":%.1f},'
      .. '"rt_ms":%d,"client_time":"2026-11-22T17:00:00.000Z"%s}', trial_id, item.index, item.stimulus,
      5 + math.random() * 90, math.random(800, 9000), EVENTS)
    local acked_at
    status, headers, body, acked_at = P.http("save", "POST", api .. "/trials", trial)
    if status ~= 200 and status ~= 201 then return P.fail("save " .. status .. " " .. body) end
    P.emit(string.format("A %s %d %s %.6f", token, item.index, trial_id, acked_at))
  end
  status, headers, body = P.http("complete", "POST", api .. "/complete", "{}")
  if status ~= 200 or not body:find('"completed"') then return P.fail("complete " .. status .. " " .. body) end
  P.emit(string.format("C %.6f %s %s", P.now(), P.header(headers, "X-Upstream"),
    body:match('"redirect_url"%s*:%s*"([^"]*)"') or body:match('"results_url"%s*:%s*"([^"]*)"') or "-"))
end)
