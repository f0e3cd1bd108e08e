// Tessera's web board starts here: the page's modules (web/js/, no build step) load from this classic
// script, which the Activity's page (web/activity/activity.js) also loads once it has signed in.
"use strict";
import("/static/js/main.js");
