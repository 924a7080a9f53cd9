"""The user's browser for the bridge's OAuth tests (`--oauth-browser`): opens
the authorization URL (its last argument) and follows the redirects, as a
browser does after the user approved, to the bridge's loopback callback."""

import sys
import urllib.request

with urllib.request.urlopen(sys.argv[-1], timeout=30) as page:
    print(f"browser: {page.status} from {page.url.split('?')[0]}", file=sys.stderr)
