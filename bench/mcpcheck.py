"""The bench scripts' one test of a tools/call answer, for SchemaBrain and its peers alike: a JSON-RPC error,
isError, a SchemaBrain envelope whose status is not one of OK, or DBHub's {"success": false} is a failure, so a
wrong argument cannot pass for a fast call."""
import json

OK = ("success", "empty", "partial")


def failure(reply, ok=OK):
    """None when the reply answered the call, else a short reason (the answer's start)."""
    if "error" in reply:
        return "error %s" % json.dumps(reply["error"])[:300]
    result = reply.get("result") or {}
    if result.get("isError"):
        return "isError: %s" % json.dumps(result)[:300]
    body = result.get("structuredContent")
    if body is None:
        try:
            body = json.loads(result["content"][0]["text"])
        except (KeyError, IndexError, TypeError, ValueError):
            body = None
    if isinstance(body, dict):
        if "status" in body and body["status"] not in ok:
            return "status %s: %s" % (body["status"], json.dumps(body)[:300])
        if "success" in body and body["success"] is not True:
            return "success false: %s" % json.dumps(body)[:300]
    return None
