"""Secrets stay secret in links and cookies (issue 21 §5): no redirect reflects the Host
header; HSTS and ``Secure`` cookies when the public address is https."""

from __future__ import annotations

import pytest
from flask import redirect, url_for

HOSTILE = "evil.example"


@pytest.mark.parametrize("path, target", [
    ("/score//ra", "/score/ra"),                       # merge_slashes
    ("/groups//12", "/groups/12"),
    ("/api/v1//games", "/api/v1/games"),
    ("/score", "/score/"),                             # strict_slashes
    ("/score//ra?lang=cs", "/score/ra?lang=cs"),
])
def test_the_url_maps_redirects_never_name_the_host_header(client, path, target):
    for base in (f"http://{HOSTILE}", f"https://{HOSTILE}:8443"):
        answer = client.get(path, base_url=base)
        assert answer.status_code == 308
        assert answer.headers["Location"] == target
        assert HOSTILE not in answer.get_data(as_text=True)


def test_a_redirect_built_on_the_request_is_made_relative(make_app):
    app = make_app()

    @app.get("/__external")
    def external():
        return redirect(url_for("main.index", _external=True) + "/evil.example")

    answer = app.test_client().get("/__external", headers={"Host": HOSTILE})
    assert answer.headers["Location"] == "/evil.example"      # a path here, not a host


def test_redirects_elsewhere_are_left_alone(client):
    answer = client.post("/language", data={"language": "cs", "next": "/games"},
                         headers={"Host": HOSTILE})
    assert answer.status_code == 303 and answer.headers["Location"] == "/games"
