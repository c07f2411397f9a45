#!/bin/bash
# Third call, on the machine of the second: city-sun.toml with and without shadows, 7690bd3.
set -u
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
gunzip -c .gl/old.gz > /tmp/old; chmod +x /tmp/old
D=$OUT/third; mkdir -p $D
/tmp/old info > $D/info.txt 2>&1
for s in on off; do
  timeout 60 /tmp/old bench --modes gpu --wide --shadows $s scenes/city-sun.toml --size 1920x1080 --frames 60 --warmup 20 --json $D/city-$s.json > $D/city-$s.txt 2>&1
done
(cd $OUT && tar czf third.tgz third); grep -E "^gpu |^adapter" $D/*.txt
