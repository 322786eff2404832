// The browser's time zone in a cookie, so the server writes dates and times in local time.
(function () {
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && document.cookie.indexOf("tz=" + encodeURIComponent(zone)) === -1) {
      document.cookie = "tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; samesite=lax";
    }
  } catch (e) { /* no Intl: dates stay in UTC */ }
})();
