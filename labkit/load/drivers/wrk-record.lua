-- LoomLab's wrk report: after wrk's own summary, one machine-readable block with the counters
-- and every recorded latency (microseconds, with its count), read back into an HdrHistogram.
-- No request() or response() function: wrk keeps its fast static-request path.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'LOOMLAB-WRK {"durationUs":%d,"responses":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}\n',
    summary.duration, summary.requests, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout))
  -- latency(i) gives the i-th distinct recorded value and how often it was seen; #latency is how many there are.
  for i = 1, #latency do
    local value, count = latency(i)
    io.write("LOOMLAB-WRK-LATENCY ", string.format("%d %d", value, count), "\n")
  end
  io.write("LOOMLAB-WRK-END\n")
end
