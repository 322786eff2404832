"""QR codes as vector SVG (qrcode library), cached per URL: a long pad or a busy table page
does not encode the same link twice. pdfgen draws from the same matrix."""

from __future__ import annotations

from functools import lru_cache
from io import BytesIO

import qrcode
import qrcode.image.svg


@lru_cache(maxsize=1024)
def qr_matrix(url: str) -> tuple[tuple[bool, ...], ...]:
    """The modules of the QR code for ``url`` (quiet zone included), medium error correction."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4)
    code.add_data(url)
    code.make(fit=True)
    return tuple(tuple(row) for row in code.get_matrix())


@lru_cache(maxsize=1024)
def qr_svg(url: str) -> str:
    """An SVG document of the QR code for ``url``, one path, scalable."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4,
                         image_factory=qrcode.image.svg.SvgPathImage)
    code.add_data(url)
    code.make(fit=True)
    buffer = BytesIO()
    code.make_image().save(buffer)
    return buffer.getvalue().decode()
