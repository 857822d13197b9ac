/// The text of `ledring --help`.
enum Usage {
    static let text = """
    ledring — progress values as light on addressable LED rings

    USAGE
      ledring --simulate [options]     show the rings as they would light, here (--driver KIND too:
                                       limited and printed as that driver's chip gets them)
      ledring --driver KIND [options]  light real LEDs (or --dump-wire FILE)
      ledring boards                   list the boards ledring knows, with their SPI pins
      ledring doctor [--root DIR]      check SPI, permissions, bufsiz, clocks; one line per check
      ledring run [--config FILE]      the service: rings fed through a control socket (docs/service.md)
      ledring check-config FILE        list every problem in a config file (exit 78 if any)
      ledring completion bash|zsh|fish a shell completion script (`ledring completion --help`)

    SERVICE
      run options           --config FILE, --socket PATH, --state PATH, --stdin (requests on standard
                            input too), --fps F, the HARDWARE options or --simulate [--format json|text],
                        and the COLOUR AND POWER options (over the config file's)
      ledring set RING=VALUE… [--duration S] [--curve C]   send values to the running service
      ledring get | status | reset [--duration S] | spin RING… | stop [RING…] | brightness B
      ledring power on|off [RING… [--duration S]]   the LEDs, or some rings (dark, value and look kept)
      ledring look RING… NAME | notify … --for D | timer RING 25m [--then LOOK] [--notify …]
      ledring feed RING [--range MIN:MAX]   a number per line on standard input becomes the value
                        (`ledring VERB --help` for one verb; --socket may come before the verb)
                            client commands take --socket PATH and --json (print the raw reply);
                            exit 0 done, 65 refused, 69 no service running

    VALUES
      --set RING=VALUE      show VALUE on RING: a fraction (0.8; 1.3 is a second lap) or 80%
      --spin RING           show the indeterminate spinner on RING
      --duration TIME       animate --set values over this long: 1.5, 90s, 1m30s (default: jump)
      --curve CURVE         linear, easeIn, easeOut, easeInOut (default) or spring

    RINGS (default: move 24, exercise 16, stand 12 LEDs on one chain)
      --rings NAME:N,...    rings on the chain, in chain order, e.g. move:24,exercise:16
      --shape ring|pie|bar  one ring, a pie of rings 24/16/12/1, or a straight bar, named "progress"
      --leds N              LEDs in the single ring or bar (default 24)
      --cap round|square    soft head that lights partly, or whole LEDs only (default round)
      --span ring|fill      gradient around the circle, or stretched over the fill (default ring)
      --reverse-spin        the spinner sweeps back and forth
      --laps turn|alternate past 100 % the gradient turns with the head (default), or runs back and forth
      --shadow S            the head's shadow past 100 %, 0…1 (default 0.35)
      --highlight H         the head's lift towards white, 0…1 (default 0.2)

    HARDWARE
      --driver KIND         ws2812-spi, ws2813-spi, sk6812-spi, sk6812w-spi, apa102-spi, sk9822-spi, leds-pio,
                            apa102-gpio, sk9822-gpio (APA102/SK9822 clocked on any two GPIO lines)
      --gpio-data L, --gpio-clock L   the lines for *-gpio drivers (offset like 23 or name like GPIO23)
      --gpio-chip LABEL     the GPIO chip's label (default: the board's, e.g. pinctrl-bcm2711)
      --device PATH         default: the board's first SPI node (/dev/spidev0.0) or /dev/leds0
      --spi-hz N            SPI clock to request (default 3600000 for WS2812/SK6812, 4000000 APA102)
      --order ORDER         colour order on the wire: GRB, RGB, BRG, ... (GRBW for RGBW chips)
      --board NAME|auto     the board, for its real SPI clock (default auto; see `ledring boards`)
      --dump-wire FILE      append each frame's exact wire bytes to FILE instead of a device
      --white MODE          RGBW white: none, min (default), accurate[-warm|-neutral|-cold]
      --hdr                 APA102/SK9822: use the 5-bit current field for finer low levels

    COLOUR AND POWER
      --max-milliamps N     supply budget for the LEDs (default 500, safe on a Pi's 5 V pin)
      --dither auto|on|off  temporal dithering (default auto: only changing LEDs, only levels where a
                            step cannot be seen flickering at the frame rate; still LEDs never)
      --correction NAME     strip white point, e.g. typical-led-strip, typical-8mm-pixel,
                            optionally +temperature (typical-led-strip+tungsten-100w)

    OUTPUT
      --format ansi|text|json|svg   picture on a terminal (default there, unless NO_COLOR is set or
                            TERM=dumb: then text), text, one JSON object per frame, or one SVG
                            picture (with --frames 1)
      --svg-dir DIR         one SVG picture per frame into DIR (frame-00000.svg, …)
      --frames N            show N frames (default: until the rings settle; on a terminal, until Ctrl-C)
      --fps F               frames per second; frame k shows t = k/F (default 30)
      --realtime            pace frames in real time even when output is not a terminal
      --brightness B        overall light, 0…1 or 0%…100% (default 1)
      --gamma G             output gamma, 1…4 (default 2.2: the sRGB colours as a monitor shows them)

      -h, --help            this text
      -V, --version         the version (also `ledring version`)
      ledring help --man    the manual page, ledring(1), as roff

    Exit status follows sysexits: 0 done, 64 bad command line, 69 device missing,
    74 I/O error, 77 no permission, 78 bad configuration.

    """
}
