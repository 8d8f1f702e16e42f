-- wrk script for bench/api/run. The request comes from the environment:
--   BENCH_METHOD (GET|POST), BENCH_PATH, BENCH_TOKEN (empty: no Authorization header, as the
--   widget calls /api), BENCH_BODY: a JSON body in which every "@N@" becomes a value unique to
--   the request (thread, start time, counter), so each invoice gets its own externalId.
-- done() prints one line the run script parses:
--   RESULT <requests/s> <p50 ms> <p99 ms> <requests> <non-2xx/3xx> <socket errors>
-- No response() callback: with one, wrk parses every body in Lua, and the load generator
-- shares the cores with the server. The run script checks each request once with curl instead.

local token = os.getenv("BENCH_TOKEN") or ""
local body = os.getenv("BENCH_BODY") or ""

wrk.method = os.getenv("BENCH_METHOD") or "GET"
wrk.path = os.getenv("BENCH_PATH") or "/healthz"
if token ~= "" then wrk.headers["Authorization"] = "Basic " .. token end
if body ~= "" then wrk.headers["Content-Type"] = "application/json" end
-- The proxy's merchant calls carry the operator's session and this server's Origin (CSRF check).
if wrk.path:sub(1, 5) == "/api/" then
    wrk.headers["Cookie"] = os.getenv("BENCH_COOKIE") or ""
    wrk.headers["Origin"] = os.getenv("BENCH_ORIGIN") or ""
end

local next_id = 1
function setup(thread)
    thread:set("thread_id", next_id)
    next_id = next_id + 1
end

-- Only a script that defines request() builds a new request each time; a fixed GET is
-- built once by wrk itself.
if body ~= "" and body:find("@N@", 1, true) then
    local counter = 0
    function request()
        counter = counter + 1
        local unique = string.format("%s-%s-%d", thread_id or 0, os.time(), counter)
        return wrk.format(nil, nil, nil, (body:gsub("@N@", unique)))
    end
elseif body ~= "" then
    wrk.body = body
end

function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format("RESULT %.1f %.3f %.3f %d %d %d\n",
        summary.requests / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000,
        summary.requests, e.status, e.connect + e.read + e.write + e.timeout))
end
