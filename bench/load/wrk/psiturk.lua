-- psiTurk 3.3.1's participant for wrk, as its psiturk.js does it: the experiment page (/exp creates the
-- participant), /inexp when the task begins, then after every trial `PUT /sync/<uniqueId>` with the whole record
-- so far (Backbone's save of the TaskData model: every trial recorded until now), and /complete at the end.
package.path = (os.getenv("LOAD_LUA_DIR") or "bench/load/wrk") .. "/?.lua;" .. package.path
local P = require("participant")
local TRIALS = 30

P.run(function(pid)
  local worker, assignment = "W" .. pid, "A" .. pid
  local uid = worker .. ":" .. assignment
  local status, headers, body = P.http("entry", "GET",
    string.format("/exp?hitId=LOADHIT&assignmentId=%s&workerId=%s&mode=live", assignment, worker))
  if status ~= 200 then return P.fail("exp " .. status) end
  status = P.http("state", "POST", "/inexp", "uniqueId=" .. uid,
    {["Content-Type"] = "application/x-www-form-urlencoded"})
  if status ~= 200 then return P.fail("inexp " .. status) end
  local data, first = {}, nil
  for index = 0, TRIALS - 1 do
    if P.PACING > 0 then
      first = first or P.now()
      P.wait_until(first + index * P.PACING)
    end
    local trial_id = string.format("%08x%08x", math.random(0, 0x7fffffff), math.random(0, 0x7fffffff))
    data[#data + 1] = string.format('{"uniqueid":"%s","current_trial":%d,"dateTime":%d,"trialdata":{"trial_id":"%s",'
      .. '"trial_index":%d,"stimulus_id":"s-%04d","response":{"percent":%.1f},"rt_ms":%d}}', uid, index,
      1795000000000 + index * 3000, trial_id, index, math.random(0, 9999), 5 + math.random() * 90,
      math.random(800, 9000))
    local record = string.format('{"condition":0,"counterbalance":0,"assignmentId":"%s","workerId":"%s",'
      .. '"hitId":"LOADHIT","currenttrial":%d,"bonus":0,"data":[%s],"questiondata":{},"eventdata":[],'
      .. '"useragent":"wrk","mode":"live"}', assignment, worker, index + 1, table.concat(data, ","))
    local acked_at
    status, headers, body, acked_at = P.http("save", "PUT", "/sync/" .. uid, record)
    if status ~= 200 or not body:find("user data saved", 1, true) then return P.fail("sync " .. status) end
    P.emit(string.format("A %s %d %s %.6f", uid, index, trial_id, acked_at))
  end
  status = P.http("complete", "GET", "/complete?uniqueId=" .. uid .. "&mode=live")
  if status ~= 200 then return P.fail("complete " .. status) end
  P.emit(string.format("C %.6f - -", P.now()))
end)
