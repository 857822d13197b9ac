# A CI light: looks running / failed / passed
ledring look build running; ledring spin build          # a build starts
ledring set build=1; ledring look build failed          # it failed: red, blinking
ledring look build passed                               # it passed: green, still

# A pomodoro: 25 minutes draining, then the "done" look
ledring timer focus 25m --then done
# …or a flashing notification when it ends, until lunch
ledring timer focus --until 12:30 --notify --color '#ff8020' --effect "flash 5" --value 100% --for 30s

# A CO₂ gauge with the zones above, fed from a sensor every minute
ledring set co2=$(read-co2-sensor)

# A copy's progress: pv prints percentages on stderr, feed turns them into the ring's value
pv -n big.iso 2>&1 >/mnt/usb/big.iso | ledring feed copy --range 0:100
