import { scanText } from "./src/pipeline/scan/engine.ts";
const pos: [string,string][] = [
 ["Zadzwoń pod 15-976-47-73 jutro","PL"],["mój numer: 512 345 678","PL"],["tel. 512-345-678","PL"],["Bel me op 020-1234567","NL"],["mobiel 06-12345678","NL"],["(020) 123 4567","NL"],["06 1234 5678 is mijn nummer","NL"],
 ["chiamami al 02 1234 5678","IT"],["cell 333 123 4567","IT"],["347 1234567","IT"],["llámame al 912 345 678","ES"],["móvil 612 34 56 78","ES"],["91 234 56 78","ES"],
 ["call (416) 555-0123","CA"],["416 555 0123","CA"],["1-416-555-0123","CA"],["(02) 9876 5432","AU"],["0412 345 678","AU"],["mobile 0412345678","AU"],
 ["Ruf an: 030 12345678","DE"],["0171 1234567","DE"],["089/12345678","DE"],["01 42 68 53 00","FR"],["06.12.34.56.78","FR"],["020 7946 0958","GB"],["07911 123456","GB"],["212 555 0147","US"],
 ["Ruf an: 030 12345678","US"],["06 12 34 56 78","US"], ["call 5123456789", "US"]
];
const neg: [string,string][] = [
 ["Order 512 345 678 shipped","PL"],["order #15976477","PL"],["on 2024-01-15 10:30","PL"],["version 10.0.19041.1234","DE"],["server 192.168.100.200","DE"],["ISBN 978-3-16-148410-0","DE"],
 ["tracking 7489 4432 1234","DE"],["ts 1700000000","US"],["ts 1700000000123","US"],["price 912 345 678 €","ES"],["population 38 386 000","PL"],["invoice 2023-11-27-0042","PL"],
 ["build 4532 0151 1283","FR"],["15.01.2024 10:30","DE"],["v1.2.3-456","US"],["id 5123456789","US"],["12 345 678 rows","ES"],["see RFC 7231 section 6","US"],["between 100 200 300 and 400","US"],
 ["order 123456789","PL"],["UPS 1Z999AA10123456784","US"],["commit 4532015112","US"],["the years 2019 2020 2021","US"],
];
for (const [t,r] of pos) { const f = scanText(t, {injection:false, phoneRegion:r}).findings.filter(f=>f.kind==="PHONE"); if (!f.length) console.log("MISS", r, t); }
for (const [t,r] of neg) { const f = scanText(t, {injection:false, phoneRegion:r}).findings.filter(f=>f.category==="pii"); if (f.length) console.log("FP", r, t, f.map(x=>x.kind+":"+t.slice(x.start,x.end))); }
